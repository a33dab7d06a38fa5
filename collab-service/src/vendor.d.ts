// Types for the ShareDB packages that ship none: only what this service uses (rich-text's are
// the client's: packages/client/src/collab/rich-text.d.ts).
declare module 'sharedb-mongo' {
  import type ShareDB from 'sharedb';
  import type { Db } from 'mongodb';
  interface ShareDbMongoDb extends ShareDB.DB {
    /** The driver's database once connected (and the poll database, when configured). */
    getDbs(callback: (error: Error | null, mongo: Db) => void): void;
  }
  function ShareDbMongo(url: string, options?: Record<string, unknown>): ShareDbMongoDb;
  export default ShareDbMongo;
}

declare module 'sharedb-milestone-mongo' {
  import type ShareDB from 'sharedb';
  class MongoMilestoneDB extends ShareDB.MilestoneDB {
    constructor(url: string, options?: { interval?: number });
  }
  export default MongoMilestoneDB;
}

declare module 'sharedb-redis-pubsub' {
  import type ShareDB from 'sharedb';
  interface RedisPubSubOptions {
    /** Publishes; a connected node-redis client. */
    client: unknown;
    /** Subscribes (a client in subscriber mode can do nothing else); a second connected client. */
    observer: unknown;
    /** Channels are `<prefix> <collection>` and `<prefix> <collection>.<id>`. */
    prefix?: string;
  }
  class RedisPubSub extends ShareDB.PubSub {
    constructor(options: RedisPubSubOptions);
    protected _subscribe(channel: string, callback: (err: Error | null) => void): void;
    protected _unsubscribe(channel: string, callback: (err: Error | null) => void): void;
    protected _publish(channels: string[], data: unknown, callback: (err: Error | null) => void): void;
    /** Closes both clients, once; close() calls it after ShareDB's own. */
    protected _close(): Promise<unknown>;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export default RedisPubSub;
}
