// Rate limits counted once for the whole process, whichever thread a request arrives on: a
// request thread asks the writing thread's counters (the same counters the writing thread's own
// routes spend) over a MessagePort, so that a client spreading its requests over the threads gets
// the budget once, not once per thread. Counters in memory are shared by the threads
// (platform/auth/shared-counters.ts), and only a key their table has no room for is asked here;
// counters in Redis or a database are asked here each time. The answer waits for the writing
// thread's loop, which is why the table exists.
import type { MessagePort } from 'node:worker_threads';
import { RateLimiterMemory, RateLimiterRes } from '@eventide/platform/auth/limiter-classes.ts';
import type { LimiterFactory, LimitSpec } from '@eventide/platform/auth/rate-limit.ts';

type Method = 'consume' | 'penalty' | 'reward' | 'get' | 'delete';
interface Ask {
  id: number;
  spec: LimitSpec;
  method: Method;
  key: string;
  points: number | undefined;
}
type Fields = Pick<RateLimiterRes, 'remainingPoints' | 'msBeforeNext' | 'consumedPoints' | 'isFirstInDuration'>;
type Answer =
  | { id: number; outcome: 'resolved'; res: Fields | null | boolean }
  | { id: number; outcome: 'refused'; res: Fields }
  | { id: number; outcome: 'failed'; message: string };

const fieldsOf = ({ remainingPoints, msBeforeNext, consumedPoints, isFirstInDuration }: RateLimiterRes): Fields => ({
  remainingPoints,
  msBeforeNext,
  consumedPoints,
  isFirstInDuration,
});
const resOf = (fields: Fields) =>
  new RateLimiterRes(fields.remainingPoints, fields.msBeforeNext, fields.consumedPoints, fields.isFirstInDuration);

/** The writing thread's side: answers a request thread's asks from `limiters`, its own counters. */
export function serveLimiters(port: MessagePort, limiters: LimiterFactory): void {
  port.on('message', async ({ id, spec, method, key, points }: Ask) => {
    const limiter = limiters(spec);
    let answer: Answer;
    try {
      const res: unknown = await (limiter[method] as (key: string, points?: number) => Promise<unknown>).call(limiter, key, points);
      answer = { id, outcome: 'resolved', res: res instanceof RateLimiterRes ? fieldsOf(res) : (res as boolean | null) };
    } catch (error) {
      answer =
        error instanceof RateLimiterRes
          ? { id, outcome: 'refused', res: fieldsOf(error) }
          : { id, outcome: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
}

/** A request thread's limiters: each asks the writing thread, and answers (or refuses) as a local one would. */
export function threadLimiters(port: MessagePort): LimiterFactory {
  let next = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  port.on('message', (answer: Answer) => {
    const waiter = waiting.get(answer.id);
    if (!waiter) return;
    waiting.delete(answer.id);
    if (answer.outcome === 'failed') waiter.reject(new Error(`rate limits: ${answer.message}`));
    else if (answer.outcome === 'refused') waiter.reject(resOf(answer.res));
    else waiter.resolve(answer.res !== null && typeof answer.res === 'object' ? resOf(answer.res) : answer.res);
  });
  // Only while an ask waits: an idle port must not keep the thread alive.
  port.unref();
  const ask = (spec: LimitSpec, method: Method, key: string | number, points?: number) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      port.postMessage({ id, spec, method, key: String(key), points } satisfies Ask);
    });

  return (spec) => {
    // The package exports no abstract base to extend; the memory limiter's own counters are never used.
    class OverThePort extends RateLimiterMemory {
      override consume(key: string | number, points?: number) {
        return ask(spec, 'consume', key, points) as Promise<RateLimiterRes>;
      }
      override penalty(key: string | number, points?: number) {
        return ask(spec, 'penalty', key, points) as Promise<RateLimiterRes>;
      }
      override reward(key: string | number, points?: number) {
        return ask(spec, 'reward', key, points) as Promise<RateLimiterRes>;
      }
      override get(key: string | number) {
        return ask(spec, 'get', key) as Promise<RateLimiterRes | null>;
      }
      override delete(key: string | number) {
        return ask(spec, 'delete', key) as Promise<boolean>;
      }
    }
    return new OverThePort({ keyPrefix: spec.name, points: spec.points, duration: spec.duration, blockDuration: spec.blockDuration ?? 0 });
  };
}
