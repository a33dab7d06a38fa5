// GET /events: the public events as server-sent events, for subscribers without Kafka (the SDK's
// HTTP transport). Each event's `id:` is its global position; a client that reconnects with
// Last-Event-ID (or ?after=) resumes right after it, so nothing is missed. `types` narrows the
// stream to some of the nine names. It needs an admin's session. Events are written as fast as the client reads them (the
// stream waits for it), with a comment every 15 s to keep idle connections open.
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { eventPosition as position, eventsQuery } from '@eventide/shared/api/events.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { EVENT_NAMES, isEventName } from '@eventide/shared/events/catalogue.ts';
import { toEnvelope } from '@eventide/shared/events/envelope.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { isAdmin, requireUser } from '@eventide/shared/auth/session.ts';
import { requestLogger } from '@eventide/shared/http/request-context.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';

const HEARTBEAT_MS = 15_000;

export function eventStreamRoutes({ eventStore }: { eventStore: EventStore }): Router {
  const router = new Router();
  router.get('/events', async (ctx) => {
    // The stream holds every user's profile: for back-end services signed in as an admin.
    if (!isAdmin(requireUser(ctx))) throw problems.forbidden('the event stream is for admins');
    const query = parseQuery(ctx, eventsQuery);
    const lastEventId = ctx.get('Last-Event-ID');
    if (lastEventId && !position.safeParse(lastEventId).success)
      throw problems.invalidField('Last-Event-ID', 'must be a position as given in an event id');
    const types = query.types
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const unknown = types?.find((t) => !isEventName(t));
    if (unknown) throw problems.invalidField('types', `${JSON.stringify(unknown)} is not one of ${EVENT_NAMES.join(', ')}`);
    const wanted = types ? new Set(types) : undefined;
    const after = lastEventId ? Number(lastEventId) : query.after === 'now' ? await eventStore.head() : Number(query.after ?? 0);

    const stream = new PassThrough();
    const controller = new AbortController();
    const log = requestLogger(ctx);
    ctx.req.once('close', () => controller.abort());
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
        for await (const event of eventStore.subscribeToAll({ after, signal: controller.signal })) {
          const envelope = toEnvelope(event);
          if (!envelope || (wanted && !wanted.has(envelope.type))) continue;
          await write(`id: ${event.position}\nevent: ${envelope.type}\ndata: ${JSON.stringify(envelope)}\n\n`);
        }
      } catch (err) {
        if (!controller.signal.aborted) log?.error({ err }, 'event stream failed; the client will reconnect with Last-Event-ID');
      } finally {
        clearInterval(heartbeat);
        stream.end();
      }
    })();
  });
  return router;
}
