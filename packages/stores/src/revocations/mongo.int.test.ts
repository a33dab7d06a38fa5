import { MongoClient } from 'mongodb';
import { describe, it } from 'vitest';
import { revocationFeedContract } from './contract.ts';
import { openMongoRevocations } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  revocationFeedContract('MongoDB', async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_revocations_${crypto.randomUUID().slice(0, 8)}`;
    const clients: MongoClient[] = [];
    return {
      async open() {
        const client = new MongoClient(dbUrl.toString());
        await client.connect();
        clients.push(client);
        return openMongoRevocations(client);
      },
      async dispose() {
        await clients[0]?.db().dropDatabase();
        for (const client of clients) await client.close();
      },
    };
  });
} else {
  console.warn(
    'SKIPPED: RevocationFeed contract on MongoDB: set MONGO_URL (a replica set, e.g. mongodb://localhost:27017/eventide?replicaSet=rs0) to run it',
  );
  describe('RevocationFeed contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
