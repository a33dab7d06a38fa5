// Read-your-writes. A write answers with Event-Position; a read that sends it back as
// Wait-For-Position waits, for a bounded time (Prefer: wait=<seconds>, default 5, at most 10),
// until the read models have reached it, or answers 503 with where they are. A read that does
// not ask never waits. Every read says where the read models were in Read-Position.
import type { Middleware } from 'koa';
import { problemOf, problems } from '@eventide/contract/problems.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';
import type { ProgressSignal } from '@eventide/runtime/compose.ts';

export const WAIT_HEADER = 'Wait-For-Position';
export const READ_POSITION_HEADER = 'Read-Position';
const DEFAULT_WAIT_S = 5;
const MAX_WAIT_S = 10;
const POLL_MS = 10;

export interface Progress {
  current(): Promise<number>;
  /** Resolves with the position reached once it is at least `position`, or at the deadline. */
  waitFor(position: number, timeoutMs: number): Promise<number>;
}

/** What progressOf hears from a projector in this process: the platform's signal, without the right to announce. */
export type ProjectorSignal = Pick<ProgressSignal, 'subscribe' | 'notifications'>;

/**
 * `projected`, where the projector runs in this process, wakes waiters at once; others poll.
 *
 * It also spares most reads a statement: the projector announces when it starts following and
 * each batch it commits, and between two announcements the served read models stand still, so
 * what the store said last still holds. Nothing else takes them back: a rebuild promotes only a
 * generation that has got at least as far (ReadStore.promote), so a value kept from before it is
 * at worst behind, never ahead, and behind only says less than is true. The count of
 * announcements comes from the signal, not from listening: the projector opens first and, on a
 * store it has caught up with, announces its start before this service exists, then stays
 * silent. Until the first announcement (in a process without a projector: ever), every read asks
 * the store. A wait always asks the store.
 */
export function progressOf(readStore: ReadStore, projected?: ProjectorSignal, stopping?: AbortSignal): Progress {
  const read = () => readStore.servedCheckpoint(READ_MODELS_CHECKPOINT);
  let known: { position: number; announced: number } | undefined;
  return {
    async current() {
      const at = projected?.notifications() ?? 0;
      if (known?.announced === at) return known.position;
      const position = await read();
      if (at > 0) known = { position, announced: at };
      return position;
    },
    async waitFor(position, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const reached = await read();
        // At shutdown a wait ends at once: its client is told to retry (503), at another process.
        if (reached >= position || Date.now() >= deadline || stopping?.aborted) return reached;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            unsubscribe?.();
            stopping?.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
          const unsubscribe = projected?.subscribe(done);
          stopping?.addEventListener('abort', done);
        });
      }
    },
  };
}

function waitSeconds(prefer: string): number {
  const match = /(?:^|[,;\s])wait=(\d+)/i.exec(prefer);
  return match ? Math.min(MAX_WAIT_S, Number(match[1])) : DEFAULT_WAIT_S;
}

export function readConsistency(progress: Progress): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const asked = ctx.get(WAIT_HEADER);
    let reached: number;
    if (asked) {
      if (!/^\d{1,15}$/.test(asked)) throw problems.invalidField(WAIT_HEADER, 'must be a position as given in Event-Position');
      const position = Number(asked);
      reached = await progress.waitFor(position, waitSeconds(ctx.get('Prefer')) * 1000);
      if (reached < position) {
        throw problemOf(
          'not-yet-consistent',
          `${WAIT_HEADER}: the read models are at position ${reached}, not yet ${position}; retry shortly`,
          {
            errors: [{ field: WAIT_HEADER, message: `not reached yet (at ${reached})` }],
            headers: { 'Retry-After': '1', [READ_POSITION_HEADER]: String(reached) },
          },
        );
      }
    } else {
      reached = await progress.current();
    }
    ctx.set(READ_POSITION_HEADER, String(reached));
    await next();
  };
}
