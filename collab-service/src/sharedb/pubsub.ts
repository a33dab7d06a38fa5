// Where ShareDB tells the editors of a document about each other's ops and cursors. In memory
// (ShareDB's default) unless REDIS_URL is set; then over Redis (sharedb-redis-pubsub), so that
// editors connected to different collab processes see each other live.
import type ShareDB from 'sharedb';
import type { Config } from '@eventide/kernel/config.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { CollabError } from '../errors.ts';

export interface CollabPubSub {
  /** Undefined: ShareDB's own in-memory pub/sub (one process). */
  pubsub?: ShareDB.PubSub;
  description: string;
  /** Asks Redis (GET /health/ready). */
  probe?(): Promise<void>;
}

export async function openCollabPubSub(config: Pick<Config, 'REDIS_URL'>, log: Logger): Promise<CollabPubSub> {
  if (!config.REDIS_URL) return { description: 'in this process' };
  // Loaded only here, so the embedded default never loads the Redis client.
  const { openRedis, closeRedis } = await import('@eventide/stores/redis.ts');
  const { default: RedisPubSub } = await import('sharedb-redis-pubsub');
  // Both fail at once while Redis is down, rather than queue without bound: an op is committed all
  // the same (only its live delivery to other processes is lost, and an editor there that missed
  // it fetches it with the next op it hears of), and a document opened meanwhile is refused with
  // an error rather than left waiting. node-redis subscribes again by itself once reconnected.
  const [client, observer] = await Promise.all([
    openRedis(config.REDIS_URL, { log, purpose: 'collab publishing', failFast: true }),
    openRedis(config.REDIS_URL, { log, purpose: 'collab subscriptions', failFast: true }),
  ]);

  class GuardedRedisPubSub extends RedisPubSub {
    // ShareDB sends an error's message to the client: say what happened, not where Redis lives.
    protected override _subscribe(channel: string, callback: (error: Error | null) => void) {
      super._subscribe(channel, (error) => {
        if (!error) return callback(null);
        log.warn({ err: error }, 'collab pub/sub: a document could not be subscribed to');
        callback(new CollabError('ERR_UNAVAILABLE', 'live editing is unavailable for a moment; try again shortly'));
      });
    }
    // The library's own close waits for Redis to answer, which it never does while away.
    private closing: Promise<unknown> | undefined;
    protected override _close() {
      this.closing ??= Promise.all([closeRedis(client), closeRedis(observer)]);
      return this.closing;
    }
  }
  const pubsub = new GuardedRedisPubSub({ client, observer, prefix: 'eventide:collab' });
  // ShareDB's pub/sub is an EventEmitter: a failed publish emits 'error', which would end the process unheard.
  pubsub.on('error', (error) => log.warn({ err: error }, 'collab pub/sub: an op or cursor was not published to other processes'));
  // @types/sharedb types an error's code as a number; ShareDB's codes are strings, as ours are.
  return {
    pubsub: pubsub as unknown as ShareDB.PubSub,
    description: 'across processes over Redis',
    probe: async () => void (await client.ping()),
  };
}
