// Memory after abuse, on the real process started as `npm start` starts it: rounds of fuzzed
// requests from many addresses, a burst of concurrent sign-ins (real scrypt) and a collab flood.
// Resident memory must stay within a bound of the idle process's, however long the abuse goes
// on. The JS heap holds nothing for good: what grows between collections is garbage, which V8
// collects in a sawtooth (the heap in use falls back to ~50 MB). What it kept was its young
// generation, grown with the allocation rate (up to 128 MB of semi-spaces) and never given back:
// 12 rounds of 8,000 took RSS from 164 MiB idle to 328 and it stayed at 324 once the heap was
// collected. Capped (package.json's start scripts), RSS peaks ~110 MiB above idle and falls back
// with the heap. Once the abuse stops, each thread's heap reducer (runtime/src/heap-reducer.ts)
// gives back what the heap grew: without it, a run whose last collection came mid-abuse kept the
// heap (375 MiB in CI against 198 idle). The short pass in `npm test` checks the bound; the long
// one (`npm run test:hostile`) is what goes past it without the cap.
//
// The bound is on what the process keeps after each round, not on what it holds the moment the
// round ends: on a busy machine, back-to-back rounds gave V8 no quiet moment, and the garbage of
// each stayed in a heap grown mid-burst until one came (a CI run: 252, 287, 323, 358, 371 MiB
// against 205 idle, all of it given back). So after each round the test waits, within a bound,
// for the process to be within the bound of idle; one that keeps what it took never is.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { ABUSE_ROUND, abuserOf, type Abuser } from './abuse.ts';
import { MEMORY_BACK_WITHIN_MS, startTarget, type HostileTarget } from './service.ts';

const ROUNDS = Number(process.env.HOSTILE_MEMORY_ROUNDS ?? 6);
const SIZE = { ...ABUSE_ROUND, requests: Number(process.env.HOSTILE_MEMORY_REQUESTS ?? ABUSE_ROUND.requests) };
/** How far above idle the process may be after a round: caches filled, garbage not yet collected. */
const ABOVE_IDLE_MIB = 140;

let target: HostileTarget;
let abuser: Abuser;

beforeAll(async () => {
  target = await startTarget();
  abuser = await abuserOf(target.url, SIZE);
});
afterAll(() => target?.close());

describe('memory after abuse', { timeout: 900_000 }, () => {
  it('stays within a bound of the idle process, round after round', async () => {
    const idle = target.rssMiB();
    const atEnd: number[] = [];
    const kept: number[] = [];
    const series = () =>
      `RSS idle ${idle.toFixed(0)}, at each round's end ${atEnd.map((r) => r.toFixed(0)).join(', ')} MiB, kept ${kept.map((r) => r.toFixed(0)).join(', ')} MiB`;
    for (let round = 1; round <= ROUNDS; round++) {
      await abuser.round(round);
      atEnd.push(target.rssMiB());
      await until(
        () => target.rssMiB() - idle < ABOVE_IDLE_MIB,
        () => `resident memory within ${ABOVE_IDLE_MIB} MiB of idle after round ${round}: ${target.rssMiB().toFixed(0)} MiB; ${series()}`,
        MEMORY_BACK_WITHIN_MS,
      );
      kept.push(target.rssMiB());
    }
    console.log(
      `memory after abuse: ${ROUNDS} rounds of ${SIZE.requests} fuzzed requests, ${SIZE.signIns} concurrent sign-ins, ${SIZE.editors} x ${SIZE.ops} stale ops; ${series()}`,
    );
  });

  it('gives back the memory the abuse took, within a minute', () => target.memoryReturns(), 90_000);
});
