// streamEvents (GET /events): the public events as server-sent events, for subscribers without
// Kafka (the SDK's HTTP transport). Each event's `id:` is its global position; a client that reconnects with
// Last-Event-ID (or ?after=) resumes right after it, so nothing is missed. `types` narrows the
// stream to some of the nine names. It is an admin's (api/operations.ts), and ends with the
// admin's session (session-watch.ts). Events are written as fast as the client reads them (the
// stream waits for it), with a comment every 15 s to keep idle connections open.
//
// One event fails alone (docs/operations.md#faults): an event a newer release wrote goes out as it
// was written, with its own schemaVersion, for a subscriber that may know it (the SDK dead-letters
// one it does not); one whose payload the catalogue refuses is left out with a comment saying so,
// and logged, since it may not reach anyone unchecked.
import type { AnyEventEnvelope } from '@eventide/kernel/events/catalogue.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { PassThrough } from 'node:stream';
import { EVENT_NAMES, isEventName } from '@eventide/kernel/events/catalogue.ts';
import { asWritten, toEnvelope } from '@eventide/kernel/events/envelope.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import { requestLogger } from '@eventide/platform/http/request-context.ts';
import type { QueryDeps } from './context.ts';
import { watchSession } from '../session-watch.ts';

const HEARTBEAT_MS = 15_000;

export function eventStreamHandlers({ eventStore, stopping, session }: QueryDeps): Pick<Handlers<'query'>, 'streamEvents'> {
  return {
    // The stream holds every user's profile: for back-end services signed in as an admin, and
    // only while that session lasts (an admin signed out or no longer one stops getting it).
    async streamEvents({ ctx, query, lastEventId, user }) {
      const types = query.types
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const unknown = types?.find((t) => !isEventName(t));
      if (unknown) throw problems.invalidField('types', `${JSON.stringify(unknown)} is not one of ${EVENT_NAMES.join(', ')}`);
      const wanted = types ? new Set(types) : undefined;
      const after = lastEventId !== undefined ? lastEventId : query.after === 'now' ? await eventStore.head() : Number(query.after ?? 0);

      const stream = new PassThrough();
      const controller = new AbortController();
      const log = requestLogger(ctx);
      const stopWatching = await watchSession(session, ctx.req, user.id, () => controller.abort(), log);
      ctx.res.once('close', () => controller.abort());
      ctx.status = 200;
      ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      ctx.body = stream;

      const write = async (text: string) => {
        if (!stream.write(text)) await new Promise((resolve) => stream.once('drain', resolve));
      };
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      void (async () => {
        try {
          // Tells the client the stream is open, before any event exists, and where it starts: the
          // comment for clients that read comments (the SDK), the id for browsers' EventSource,
          // which resumes from it after a reconnect.
          await write(`: connected after ${after}\nid: ${after}\n\n`);
          // Ended when the client goes, or when this process shuts down (the client resumes elsewhere with Last-Event-ID).
          const signal = AbortSignal.any([controller.signal, stopping]);
          for await (const event of eventStore.subscribeToAll({ after, signal })) {
            if (!isEventName(event.type) || (wanted && !wanted.has(event.type))) continue;
            const envelope = envelopeFor(event, log);
            if (envelope) await write(`id: ${event.position}\nevent: ${envelope.type}\ndata: ${JSON.stringify(envelope)}\n\n`);
            else
              await write(
                `: the event at position ${event.position} is left out: its payload does not match the catalogue\nid: ${event.position}\n\n`,
              );
          }
        } catch (err) {
          if (!controller.signal.aborted && !stopping.aborted)
            log?.error({ err }, 'event stream failed; the client will reconnect with Last-Event-ID');
        } finally {
          stopWatching();
          clearInterval(heartbeat);
          stream.end();
        }
      })();
    },
  };
}

/** The event as it goes out, or undefined when it may not (above). */
function envelopeFor(event: RecordedEvent, log: Logger | undefined): AnyEventEnvelope | undefined {
  if (event.unreadable !== undefined) return asWritten(event);
  try {
    return toEnvelope(event);
  } catch (error) {
    log?.error(
      { err: error, position: event.position, type: event.type },
      'GET /events: an event does not match the catalogue; it is left out',
    );
    return undefined;
  }
}
