// The hostile suite's target: the real entry point (`npm start`'s main.ts) as a child process,
// trusting one proxy hop so that a test can speak for many client addresses, and what a test
// can observe of it from outside: its resident memory, and whether it answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { reductionWithinMs } from '@eventide/runtime/heap-reducer.ts';
import { signUp, type SignedIn } from '@eventide/testing/sign-in.ts';
import { freePort, grantAdmin, residentMiB, residentParts, startService, type RunningService } from '../process.ts';

/**
 * How long the process may take to give back what an abuse took: each thread's heap reducer waits
 * for it to have been quiet for a while (runtime/src/heap-reducer.ts), and a busy machine's
 * collections and page reclaim take some seconds more.
 */
export const MEMORY_BACK_WITHIN_MS = reductionWithinMs() + 25_000;

export interface HostileTarget extends RunningService {
  dataDir: string;
  env: Record<string, string>;
  /** Resident memory of the service process, in MiB (Linux /proc). */
  rssMiB(): number;
  /** Its resident memory once it had started, with its followers' thread, before any test asked anything of it. */
  idleMiB: number;
  /**
   * Resolves once resident memory is back within 1.5 times idle, failing after MEMORY_BACK_WITHIN_MS: what every
   * abuse case must leave behind (issue 44), whatever it took while it lasted. A test whose own
   * setup holds data before the abuse begins (people with large documents) gives what it held then.
   */
  memoryReturns(beforeAbuseMiB?: number): Promise<void>;
  /** A signed-in admin, as an operator makes one. */
  admin(): Promise<JsonClient & SignedIn>;
  close(): Promise<void>;
}

export async function startTarget(env: Record<string, string> = {}): Promise<HostileTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), 'eventide-hostile-'));
  // The metrics port is read only when memory does not come back, to say whose it is.
  const metricsPort = await freePort();
  const fullEnv = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SQLITE_SYNCHRONOUS: 'NORMAL',
    TRUST_PROXY_HOPS: '1',
    METRICS_PORT: String(metricsPort),
    ...env,
  };
  const service = await startService(fullEnv);
  // The writing thread answers first; the request threads join it once started. Until they listen,
  // the writing thread holds only its share of the connection caps, and the idle memory lacks theirs.
  await until(async () => {
    const health = (await (await fetch(`http://127.0.0.1:${metricsPort}/health`)).json()) as {
      requestThreads?: number;
      listening?: number;
    };
    return health.listening === health.requestThreads;
  }, 'the request threads to listen');
  const pid = service.child.pid!;
  const rssMiB = () => residentMiB(pid);
  // On an empty store the followers' thread waits for the first event: one sign-up, read back,
  // starts it, so that idle is measured with it running, as after any abuse that writes.
  const first = await jsonClient(service.url).request('POST', '/users', { name: 'Idle', email: `idle-${process.pid}@example.test` });
  const position = first.headers.get('Event-Position');
  if (first.status !== 201 || !position) throw new Error(`the first sign-up failed: ${first.status}`);
  await fetch(`${service.url}/products?limit=1`, { headers: { 'Wait-For-Position': position } });
  const idleMiB = rssMiB();
  return {
    ...service,
    dataDir,
    env: fullEnv,
    rssMiB,
    idleMiB,
    async memoryReturns(beforeAbuseMiB = idleMiB) {
      const backAt = 1.5 * beforeAbuseMiB;
      try {
        await until(() => rssMiB() <= backAt, `resident memory back within 1.5 times what it held before the abuse`, MEMORY_BACK_WITHIN_MS);
      } catch {
        throw new Error(
          `resident memory did not come back within 1.5 times what it held before the abuse (${beforeAbuseMiB.toFixed(0)} MiB) in ${MEMORY_BACK_WITHIN_MS / 1000} s: ${rssMiB().toFixed(0)} MiB (${residentParts(pid)}; ${await heapOf(metricsPort)})`,
        );
      }
    },
    async admin() {
      const client = jsonClient(service.url);
      const me = await signUp(client);
      await grantAdmin(fullEnv, me.email);
      const again = jsonClient(service.url);
      const reply = await again.request('POST', '/auth/sign-in', { email: me.email, password: me.password });
      if (reply.status !== 200) throw new Error(`admin sign-in failed: ${reply.status}`);
      return Object.assign(again, me);
    },
    async close() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The V8 heap and the memory outside it that V8 knows of, from the process's metrics, in MiB: whose the memory is. */
async function heapOf(metricsPort: number): Promise<string> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const gauge = (name: string) => ((Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]) || Number.NaN) / 2 ** 20).toFixed(0);
    return `V8 heap used ${gauge('nodejs_heap_size_used_bytes')} of ${gauge('nodejs_heap_size_total_bytes')}, external ${gauge('nodejs_external_memory_bytes')}`;
  } catch (error) {
    return `no metrics: ${(error as Error).message}`;
  }
}

/** Whether the service answers GET /health now; used while an attack is in flight. */
export async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).status === 200;
  } catch {
    return false;
  }
}
