// Following the read models live (GET /changes, docs/api.md#live), for browsers and Node: the
// server-sent events parsed (eventsource-parser), and a dropped stream resumed after the last
// message read (Last-Event-ID), with bounded, jittered backoff, as a browser's EventSource would
// but on fetch, so that it also runs in Node and can be stopped with a signal. A refusal (401,
// 429…) ends it with the problem; a server that ends the stream for good (the session ended) ends
// it quietly.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { CHANGE_EVENTS, type ChangeResource } from '@eventide/contract/resources/live/change-events.ts';
import { backoffDelay } from '@eventide/kernel/backoff.ts';

/** What each resource's changes carry: the entity as GET of it answers. */
export interface LiveBodies {
  orders: unknown;
  products: unknown;
  users: unknown;
}

export type LiveChange<Bodies extends LiveBodies> = {
  [R in ChangeResource]:
    | { type: 'changed'; position: number; resource: R; id: string; version: number; body: Bodies[R] }
    | { type: 'deleted'; position: number; resource: R; id: string; version: number };
}[ChangeResource];

export type LiveEvent<Bodies extends LiveBodies> =
  /** Connected (again) and caught up: every change from here on follows. Show what you fetch from now. */
  | { type: 'ready'; position: number }
  /** The stream cannot say what changed since the client's last message: reload what is shown. */
  | { type: 'reset'; position: number; reason: string }
  | LiveChange<Bodies>;

export interface FollowOptions {
  signal?: AbortSignal;
}

/**
 * The stream's events, one at a time, until the signal aborts, the server ends the stream for
 * good, or a request is refused (`refusal` makes the error). `connect` opens the stream,
 * resuming after `lastEventId` when given.
 */
export async function* followChanges<Bodies extends LiveBodies>(
  connect: (lastEventId: string | undefined, signal: AbortSignal | undefined) => Promise<Response>,
  refusal: (response: Response) => Promise<Error>,
  { signal }: FollowOptions = {},
): AsyncGenerator<LiveEvent<Bodies>> {
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  for (let failures = 0; !signal?.aborted; ) {
    try {
      const response = await connect(lastEventId, signal);
      // Busy or restarting: try again, as with a dropped connection; anything else is an answer.
      if (response.status >= 500) throw new Error(`GET /changes answered ${response.status}`);
      if (!response.ok || !response.body) throw new Refused(await refusal(response));
      const arrived: EventSourceMessage[] = [];
      const parser = createParser({
        onEvent: (message) => void arrived.push(message),
        onRetry: (ms) => (retryMs = ms),
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        for (let message = arrived.shift(); message; message = arrived.shift()) {
          if (message.id !== undefined) lastEventId = message.id;
          if (message.event === CHANGE_EVENTS.ended) return;
          const event = eventOf<Bodies>(message);
          if (event) {
            failures = 0;
            yield event;
          }
        }
      }
      // The server ended the stream (it restarts, or this client read too slowly): resume.
    } catch (error) {
      if (error instanceof Refused) throw error.problem;
      if (signal?.aborted) return;
    }
    failures++;
    await pause(Math.max(retryMs ?? 0, backoffDelay(failures)), signal);
  }
}

class Refused extends Error {
  readonly problem: Error;
  constructor(problem: Error) {
    super(problem.message);
    this.problem = problem;
  }
}

function eventOf<Bodies extends LiveBodies>(message: EventSourceMessage): LiveEvent<Bodies> | undefined {
  const position = Number(message.id);
  const data = JSON.parse(message.data) as Record<string, unknown>;
  switch (message.event) {
    case CHANGE_EVENTS.ready:
      return { type: 'ready', position };
    case CHANGE_EVENTS.reset:
      return { type: 'reset', position, reason: String(data.reason) };
    case CHANGE_EVENTS.changed:
    case CHANGE_EVENTS.deleted:
      return { type: message.event, position, ...data } as LiveEvent<Bodies>;
    default:
      // A kind of message this client does not know yet: skipped, as EventSource would.
      return undefined;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
