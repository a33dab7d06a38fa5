// Delivery over HTTP for the embedded default (no Kafka): the query service's GET /events
// (server-sent events), one event at a time in log order. The position of the last event handled
// is kept through `checkpoint` when given, and a dropped connection resumes right after it
// (Last-Event-ID) with bounded, jittered backoff. One subscriber per stream: consumer groups
// and a dead-letter topic are Kafka's; here a dead letter goes to `onDeadLetter` (default: the log).
import { backoffDelay, sleep } from '@eventide/kernel/backoff.ts';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createApiClient } from '@eventide/client/api-client.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { DeadLetter, Dispatcher } from './dispatch.ts';
import type { Transport } from './bus-transport.ts';

export interface HttpTransportOptions {
  /** The service's base URL, e.g. http://localhost:3000. */
  url: string;
  /** Where the subscriber is in the log; without it, each start begins at the first event. */
  checkpoint?: { load(): Promise<number>; save(position: number): Promise<void> };
  /**
   * Where a subscriber with no position yet (no checkpoint saved) begins: 'beginning' (the
   * default) replays the whole log; 'now' takes only the events appended after it connects.
   */
  from?: 'beginning' | 'now';
  onDeadLetter?: (letter: DeadLetter) => Promise<void> | void;
  headers?: Record<string, string>;
  /** An admin's credentials: the stream needs an admin's session. The transport signs in with
   * them, and again whenever the session has ended (401). */
  credentials?: { email: string; password: string };
}

export function httpTransport(options: HttpTransportOptions, log: Logger): Transport {
  const controller = new AbortController();
  let running: Promise<void> | undefined;

  // Where the operations are comes from the route table.
  const { urlOf } = createApiClient({ baseUrl: options.url.replace(/\/$/, '') });
  let cookie: string | undefined;

  async function signIn(): Promise<void> {
    const response = await fetch(urlOf('signIn'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(options.credentials),
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
    cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  async function follow(dispatcher: Dispatcher, onConnected: () => void): Promise<void> {
    let position = (await options.checkpoint?.load()) ?? 0;
    let begun = false;
    const types = dispatcher.names().join(',');
    for (let failures = 0; !controller.signal.aborted; ) {
      try {
        if (options.credentials && !cookie) await signIn();
        // Nothing handled, no checkpoint, and the server has not yet said where "now" is (its
        // connected comment): ask for now. After that even 0 (an empty log) is a place to resume.
        const fromNow = position === 0 && options.from === 'now' && !begun;
        const resume: Record<string, string> = fromNow ? {} : { 'Last-Event-ID': String(position) };
        const response = await fetch(urlOf('streamEvents', { query: { types, ...(fromNow ? { after: 'now' } : {}) } }), {
          headers: { accept: 'text/event-stream', ...resume, ...(cookie ? { cookie } : {}), ...options.headers },
          signal: controller.signal,
        });
        if (response.status === 401) cookie = undefined;
        if (!response.ok || !response.body) throw new Error(`GET /events answered ${response.status}`);
        onConnected();
        failures = 0;
        const arrived: EventSourceMessage[] = [];
        let started: number | undefined;
        const parser = createParser({
          onEvent: (message) => void arrived.push(message),
          onComment: (comment) => {
            const at = /^ ?connected after (\d+)$/.exec(comment);
            if (at) started = Number(at[1]);
          },
        });
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          if (fromNow && started !== undefined && !begun) {
            begun = true;
            // From here on, a reconnect or a restart resumes after the point it began at.
            position = started;
            await options.checkpoint?.save(position);
          }
          for (let message = arrived.shift(); message; message = arrived.shift()) {
            await dispatcher.dispatch(message.data, { position: message.id ?? '' });
            position = Number(message.id);
            await options.checkpoint?.save(position);
          }
        }
        throw new Error('the event stream ended');
      } catch (error) {
        if (controller.signal.aborted) return;
        failures++;
        const delay = backoffDelay(failures);
        log.warn(
          { err: error, position, retryInMs: Math.round(delay) },
          'subscriber: event stream lost; resuming after the last event handled',
        );
        await sleep(delay);
      }
    }
  }

  return {
    async start(dispatcher) {
      if (dispatcher.names().length === 0) throw new Error('register a handler with on() before start()');
      // start() resolves once the stream is open.
      await new Promise<void>((resolve) => {
        running = follow(dispatcher, resolve);
      });
    },
    async stop() {
      controller.abort();
      await running;
    },
    async deadLetter(letter) {
      if (options.onDeadLetter) return void (await options.onDeadLetter(letter));
      log.error(
        {
          eventId: letter.eventId,
          eventType: letter.eventType,
          correlationId: letter.correlationId,
          attempts: letter.attempts,
          reason: letter.reason,
        },
        'subscriber: handler kept failing; event dropped',
      );
    },
  };
}
