// Revocations in MongoDB, beside the sessions, for deployments of several processes or nodes: a
// change stream tells every process of each revocation as it is inserted. Change streams need a
// replica set (infra/compose.yaml runs one; a single node can be one too). Records expire after
// ten minutes: only processes running then need them.
import { randomUUID } from 'node:crypto';
import type { ChangeStream, Collection, MongoClient } from 'mongodb';
import { LocalListeners, type Revocation, type RevocationFeed } from './port.ts';

interface RevocationDocument {
  _id: string;
  revocation: Revocation;
  at: Date;
}

export interface MongoRevocationOptions {
  onError?: (error: unknown) => void;
  /** How long to wait before watching again after the change stream failed. */
  retryMs?: number;
}

export async function openMongoRevocations(client: MongoClient, options: MongoRevocationOptions = {}): Promise<RevocationFeed> {
  const collection: Collection<RevocationDocument> = client.db().collection('session_revocations');
  await collection.createIndex({ at: 1 }, { expireAfterSeconds: 600 });
  const onError = options.onError ?? (() => undefined);
  const listeners = new LocalListeners(onError);
  const own = new Set<string>();
  let stream: ChangeStream<RevocationDocument> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  function watch(): void {
    if (closed || stream || listeners.size === 0) return;
    const watching = collection.watch<RevocationDocument>([{ $match: { operationType: 'insert' } }]);
    stream = watching;
    watching.on('change', (change) => {
      if (change.operationType !== 'insert') return;
      const doc = change.fullDocument;
      if (own.delete(doc._id)) return;
      listeners.deliver(doc.revocation);
    });
    watching.on('error', (error) => {
      onError(error);
      stream = undefined;
      void watching.close().catch(() => undefined);
      // The sessions themselves are gone already; sockets are also re-checked periodically.
      retry = setTimeout(watch, options.retryMs ?? 1_000);
      retry.unref();
    });
  }

  return {
    async publish(revocation) {
      const _id = randomUUID();
      if (stream) own.add(_id);
      await collection.insertOne({ _id, revocation, at: new Date() });
      listeners.deliver(revocation);
    },
    subscribe(listener) {
      const remove = listeners.add(listener);
      watch();
      return () => {
        remove();
        if (listeners.size === 0 && stream) {
          void stream.close().catch(() => undefined);
          stream = undefined;
          own.clear();
        }
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await stream?.close().catch(() => undefined);
    },
  };
}
