// Memory after abuse: the process as `npm start` runs it (the hostile tests' settings), idle for a
// few seconds, then
// given rounds of every kind of abuse (infra/test/hostile/abuse.ts), then left alone. What it holds
// `settleSeconds` later ÷ what it held idle is the figure: what abuse leaves behind, not what it
// takes while it lasts. The wait runs beside the other sections (the process sits idle meanwhile),
// so that it adds no minute of its own to the run.
import { abuserOf, type AbuseSize } from '../test/hostile/abuse.ts';
import { startTarget } from '../test/hostile/service.ts';

export interface MemoryResults {
  rounds: number;
  size: AbuseSize;
  settleSeconds: number;
  /** Resident memory, MiB: idle before, right after the abuse, and settleSeconds later. */
  idleMiB: number;
  abusedMiB: number;
  settledMiB: number;
}

/** Abuses a process now; resolves `settled` once it has stood idle for `settleSeconds` after. */
export async function benchMemory(plan: {
  idleSeconds: number;
  rounds: number;
  size: AbuseSize;
  settleSeconds: number;
}): Promise<{ settled: Promise<MemoryResults> }> {
  const { rounds, size, settleSeconds } = plan;
  const target = await startTarget();
  let idleMiB: number;
  try {
    // The target's first sign-up has started the followers' thread (service.ts).
    const abuser = await abuserOf(target.url, size);
    // Idle means done starting: what start-up allocated and dropped has been collected by then.
    await new Promise((resolve) => setTimeout(resolve, plan.idleSeconds * 1000));
    idleMiB = target.rssMiB();
    for (let round = 1; round <= rounds; round++) await abuser.round(round);
  } catch (error) {
    await target.close();
    throw error;
  }
  const abusedMiB = target.rssMiB();
  const settled = (async () => {
    try {
      await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
      return { rounds, size, settleSeconds, idleMiB, abusedMiB, settledMiB: target.rssMiB() };
    } finally {
      await target.close();
    }
  })();
  return { settled };
}
