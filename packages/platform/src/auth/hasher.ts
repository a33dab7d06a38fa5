// Password hashing for requests. scrypt is the costliest thing a stranger can make the service do
// (about 0.3 s of a core and 128 MiB per hash), and libuv's thread pool takes work first come,
// first served: one client with 40 sign-ins in flight would make everyone else wait behind them.
// Every hash therefore goes through a FairQueue, per client, on fewer slots than the pool has
// threads, so that file and DNS work keep a thread too.
import { availableParallelism } from 'node:os';
import type { Context } from 'koa';
import { FairQueue } from './fair-queue.ts';
import { CURRENT, hashPassword, verifyPassword, type ScryptParameters, type Verification } from './password.ts';

export interface HasherOptions {
  params?: ScryptParameters;
  /** Hashes at once; default: the cores, at most one less than libuv's pool. */
  concurrency?: number;
  /** A client's hashes waiting behind its running one before it is refused (429). */
  perClientWaiting?: number;
  /** All hashes waiting before anyone new is refused (503). */
  maxWaiting?: number;
}

export function defaultHashConcurrency(): number {
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(availableParallelism(), pool - 1));
}

export class PasswordHasher {
  readonly params: ScryptParameters;
  private readonly queue: FairQueue;

  constructor(options: HasherOptions = {}) {
    this.params = options.params ?? CURRENT;
    this.queue = new FairQueue({
      concurrency: options.concurrency ?? defaultHashConcurrency(),
      perClientRunning: 1,
      perClientWaiting: options.perClientWaiting ?? 4,
      maxWaiting: options.maxWaiting ?? 64,
    });
  }

  get load(): { running: number; waiting: number } {
    return this.queue.size;
  }

  /** Runs `work` (one or more hashes) in the client's turn. */
  run<T>(client: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.queue.run(client, work, signal);
  }

  hash(client: string, password: string, signal?: AbortSignal): Promise<string> {
    return this.run(client, () => hashPassword(password, this.params), signal);
  }

  verify(client: string, password: string, encoded: string, signal?: AbortSignal): Promise<Verification> {
    return this.run(client, () => verifyPassword(password, encoded, this.params), signal);
  }
}

/** Aborted when the client goes away before the answer is sent: its queued work is then dropped. */
export function abandonSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
