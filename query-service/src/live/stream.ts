// GET /changes: one signed-in user's live stream of the read models (docs/api.md#live). Each
// change to an entity of the resources asked for (`of`) that its read route would show this user
// is sent as that route would answer it now, with the event's position as the SSE id. A client
// that reconnects with Last-Event-ID (a browser's EventSource does) or `after` gets what changed
// since, each entity once, as it is now; from further back than the stream can say, or from a
// position this store never gave, it is told to reload (`reset`) and goes on from now.
//
// Bounded: a user holds a few streams at once (LIVE_STREAMS_PER_USER, per process), and a client
// that does not read what it is sent loses its stream once a megabyte waits for it (it resumes
// from the last change it read), or sooner when the process's streams hold LIVE_UNREAD_BYTES in
// all and its stream holds the most (unread.ts). A stream ends when its session does: sign-out,
// a password or role change, a deleted user (the revocation feed, from any process), or a timeout
// (session-watch.ts).
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { CHANGE_EVENTS, CHANGE_RESOURCES, type ChangeMessage, type ChangeResource } from '@eventide/contract/resources/live/changes.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { UserPrincipal } from '@eventide/kernel/models/principal.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { UserConnections } from '@eventide/platform/user-connections.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { ReadStore } from '@eventide/stores/read-store/port.ts';
import { changeOf, entityOf, type Change, type ChangeHub } from './hub.ts';
import { mayRead, type LiveResources } from './resources.ts';
import type { UnreadLedger } from './unread.ts';
import { watchSession, type SessionWatch } from '../session-watch.ts';

export interface LiveDeps {
  hub: ChangeHub;
  resources: LiveResources;
  perUser: UserConnections;
  maxPerUser: number;
  /** Ends a stream when its session ends. */
  session: SessionWatch;
  eventStore: EventStore;
  readStore: ReadStore;
  stopping: AbortSignal;
  /** What every stream of the process holds unread, bounded in all (LIVE_UNREAD_BYTES). */
  unread: UnreadLedger;
}

const HEARTBEAT_MS = 15_000;
/** Each change the hub delivers is rendered once, for every stream that sends it. */
const rendered = new WeakMap<Change, string>();
/** Events a resuming stream reads to say what changed since; from further back it is told to reload. */
export const MAX_CATCH_UP_EVENTS = 10_000;
/** What may wait unread for one client before its stream is cut (it resumes from what it read). */
const MAX_UNREAD_BYTES = 1024 * 1024;
/** How long a browser waits before it reconnects a stream that ended. */
const RETRY_MS = 1_000;

export interface StreamRequest {
  ctx: Context;
  who: UserPrincipal;
  of: readonly ChangeResource[] | undefined;
  /** Last-Event-ID, or else `after`: where the client's view stands. */
  from: number | undefined;
  log: Logger | undefined;
  /** Charges the client's read budget for the catch-up, which runs after the handler returned. */
  chargeReads?: (ms: number) => void;
}

export async function openChangeStream(deps: LiveDeps, { ctx, who, of, from, log, chargeReads }: StreamRequest): Promise<void> {
  const release = deps.perUser.take(who.userId);
  if (!release)
    throw problems.tooManyRequests(`at most ${deps.maxPerUser} live change streams per user at once; close one first`, {
      'Retry-After': '5',
    });
  const wanted = new Set<ChangeResource>(of ?? CHANGE_RESOURCES);
  const stream = new PassThrough();
  let held: Change[] | undefined = [];
  let startAt = 0;
  let reset: { reason: string } | undefined;
  let ended = false;

  const end = (event?: { reason: string }) => {
    if (ended) return;
    ended = true;
    if (event) stream.write(`event: ${CHANGE_EVENTS.ended}\ndata: ${JSON.stringify(event)}\n\n`);
    stream.end();
  };
  const unreadBytes = () => stream.writableLength + stream.readableLength;
  const cut = (why: string) => {
    log?.warn({ user: who.userId }, `live changes: ${why}; its stream is cut, and it resumes from what it read`);
    ended = true;
    stream.destroy();
    // Reset, not closed: what the kernel holds for a client that does not read is freed now, not
    // after the orphaned socket's probes give up.
    ctx.socket.resetAndDestroy();
  };
  const unread = deps.unread.join(unreadBytes, () => cut('the streams of this process held too much unread, this one the most'));
  const write = (text: string) => {
    if (ended) return;
    stream.write(text);
    if (unreadBytes() > MAX_UNREAD_BYTES) cut('a client read too slowly');
    else unread.written();
  };
  const send = (change: Change) => {
    let text = rendered.get(change);
    if (text === undefined) {
      text = messageOf(deps.resources, change);
      rendered.set(change, text);
    }
    write(text);
  };
  const visible = (change: Change) => wanted.has(change.resource) && mayReadChange(deps.resources, who, change);

  let joined: Awaited<ReturnType<ChangeHub['join']>> | undefined;
  let stopListening: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const onStopping = () => end();
  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    clearInterval(heartbeat);
    deps.stopping.removeEventListener('abort', onStopping);
    stopListening?.();
    joined?.leave();
    unread.leave();
    release();
    end();
  };
  // The response closes when the stream ends or the client goes (the request's close can come earlier).
  ctx.res.once('close', cleanUp);
  stream.once('close', cleanUp);
  deps.stopping.addEventListener('abort', onStopping, { once: true });

  try {
    stopListening = await watchSession(deps.session, ctx.req, who.userId, () => end({ reason: 'the session ended: sign in again' }), log);
    joined = await deps.hub.join({
      change(change) {
        if (change.position <= startAt || !visible(change)) return;
        if (held) held.push(change);
        else send(change);
        if (held && held.length > MAX_CATCH_UP_EVENTS) {
          log?.warn({ user: who.userId }, 'live changes: too many changes while a stream caught up; it resumes');
          ended = true;
          stream.destroy();
        }
      },
      fail: () => end(),
    });
    startAt = joined.at;
    // A client ahead of this process's stream (a write's Event-Position, or a stream it had from
    // another process) has seen those changes; one past the store's end holds a view of another store.
    if (from !== undefined && from > startAt) {
      if (from > (await deps.eventStore.head())) reset = resetReason(from, 'unknown');
      else startAt = from;
    }
  } catch (error) {
    cleanUp();
    throw error;
  }

  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  ctx.body = stream;
  heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);

  void (async () => {
    try {
      write(`retry: ${RETRY_MS}\n: following ${[...wanted].join(', ')}\n\n`);
      if (!reset && from !== undefined && from < startAt) {
        const started = performance.now();
        const caughtUp = await catchUp(deps, from, startAt, visible, send);
        chargeReads?.(performance.now() - started);
        if (caughtUp === 'reset') reset = resetReason(from, 'far');
      }
      if (reset) write(`id: ${startAt}\nevent: ${CHANGE_EVENTS.reset}\ndata: ${JSON.stringify(reset)}\n\n`);
      // Where the stream stands, for a browser to resume from, before any change comes.
      write(`id: ${startAt}\nevent: ${CHANGE_EVENTS.ready}\ndata: ${JSON.stringify({ position: startAt })}\n\n`);
      const waiting = held ?? [];
      held = undefined;
      for (const change of waiting) if (change.position > startAt) send(change);
    } catch (error) {
      if (!ended) log?.error({ err: error }, 'live changes: catching up failed; the client will resume with Last-Event-ID');
      end();
    }
  })();
}

function resetReason(from: number, why: 'unknown' | 'far'): { reason: string } {
  return {
    reason:
      why === 'unknown'
        ? `position ${from} is past the end of this store's log: reload what is shown`
        : `more than ${MAX_CATCH_UP_EVENTS} events since position ${from}: reload what is shown`,
  };
}

/**
 * What changed after `from` up to `at`, each entity once, as the read models hold it now, in the
 * order of its last event: a client cut off at any message resumes after it and misses nothing.
 */
async function catchUp(
  deps: LiveDeps,
  from: number,
  at: number,
  visible: (change: Change) => boolean,
  send: (change: Change) => void,
): Promise<'done' | 'reset'> {
  const last = new Map<string, { position: number; resource: Change['resource']; id: string }>();
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, deps.stopping]);
  let read = 0;
  for await (const event of deps.eventStore.subscribeToAll({ after: from, signal, keepSealed: true })) {
    if (event.position > at) break;
    if (++read > MAX_CATCH_UP_EVENTS) {
      controller.abort();
      return 'reset';
    }
    const entity = entityOf(event);
    if (entity) {
      const key = `${entity.resource}/${entity.id}`;
      last.delete(key);
      last.set(key, { position: event.position, ...entity });
    }
    if (event.position === at) break;
  }
  controller.abort();
  for (const { position, resource, id } of last.values()) {
    const change = await changeOf(deps.readStore, resource, id, position);
    if (change && visible(change)) send(change);
  }
  return 'done';
}

/** Whether `who` may read the change's entity, by its resource's read route. */
function mayReadChange<C extends ChangeResource>(resources: LiveResources, who: UserPrincipal, change: Change<C>): boolean {
  return mayRead(resources[change.resource], who, change.doc);
}

/** One change as an SSE message: the entity as its read route answers now, or that it is deleted. */
function messageOf<C extends ChangeResource>(resources: LiveResources, { position, resource, doc }: Change<C>): string {
  const deleted = doc.deleted;
  const message: ChangeMessage = {
    resource,
    id: doc.id,
    version: doc.version,
    ...(deleted ? {} : { body: resources[resource].render(doc.fields) }),
  };
  return `id: ${position}\nevent: ${deleted ? CHANGE_EVENTS.deleted : CHANGE_EVENTS.changed}\ndata: ${JSON.stringify(message)}\n\n`;
}
