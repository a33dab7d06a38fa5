// GET /admin/followers/live: what GET /admin/followers answers, as server-sent events, sent again
// each time it changes, for the console to follow without polling. One round of reads a second
// serves every open stream of the process, and only while one is open; a stream ends with its
// session, and when the process shuts down.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { FollowersBody } from '@eventide/contract/resources/operator/schemas.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { UserConnections } from '@eventide/platform/user-connections.ts';
import { watchSession, type SessionWatch } from '../session-watch.ts';

const EVERY_MS = 1_000;
const HEARTBEAT_MS = 15_000;

type Listener = (state: string) => void;

/** Reads the state once a second while anyone listens, and tells them when it changed. */
export class FollowersFeed {
  private readonly listeners = new Set<Listener>();
  private readonly read: () => Promise<FollowersBody>;
  private readonly log: Logger;
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;

  constructor(read: () => Promise<FollowersBody>, log: Logger) {
    this.read = read;
    this.log = log;
  }

  /** Calls `listener` with the state now and at each change; returns what stops it. */
  async listen(listener: Listener): Promise<() => void> {
    const now = JSON.stringify(await this.read());
    this.last ??= now;
    listener(now);
    this.listeners.add(listener);
    this.timer ??= setInterval(() => void this.tick(), EVERY_MS);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
        this.last = undefined;
      }
    };
  }

  private async tick(): Promise<void> {
    try {
      const now = JSON.stringify(await this.read());
      if (now === this.last) return;
      this.last = now;
      for (const listener of this.listeners) listener(now);
    } catch (error) {
      this.log.warn({ err: error }, 'operator console: reading the followers failed; trying again');
    }
  }
}

export interface LiveFollowersDeps {
  feed: FollowersFeed;
  perUser: UserConnections;
  maxPerUser: number;
  session: SessionWatch;
  stopping: AbortSignal;
}

export async function openFollowersStream(deps: LiveFollowersDeps, ctx: Context, userId: string, log: Logger | undefined): Promise<void> {
  const release = deps.perUser.take(userId);
  if (!release) {
    throw problems.tooManyRequests(`at most ${deps.maxPerUser} live streams per user at once; close one first`, { 'Retry-After': '5' });
  }
  const stream = new PassThrough();
  const cleanUps: Array<() => void> = [release];
  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    for (const clean of cleanUps) clean();
    stream.end();
  };
  ctx.res.once('close', cleanUp);
  deps.stopping.addEventListener('abort', cleanUp, { once: true });
  cleanUps.push(() => deps.stopping.removeEventListener('abort', cleanUp));
  try {
    cleanUps.push(await watchSession(deps.session, ctx.req, userId, cleanUp, log));
    const send = (state: string) => {
      // A console that stopped reading is dropped rather than buffered for: it reconnects.
      if (stream.writableLength > 64 * 1024) return cleanUp();
      stream.write(`event: followers\ndata: ${state}\n\n`);
    };
    cleanUps.push(await deps.feed.listen(send));
  } catch (error) {
    cleanUp();
    throw error;
  }
  const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
  cleanUps.push(() => clearInterval(heartbeat));
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  ctx.body = stream;
}
