import { MongoClient } from 'mongodb';
import { describe, it } from 'vitest';
import { keyStoreContract } from './contract.ts';
import { openMongoKeyStore } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  keyStoreContract('MongoDB', async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_keys_${crypto.randomUUID().slice(0, 8)}`;
    const clients: MongoClient[] = [];
    return {
      async open() {
        const client = new MongoClient(dbUrl.toString());
        await client.connect();
        clients.push(client);
        return openMongoKeyStore(client);
      },
      async dispose() {
        await clients[0]?.db().dropDatabase();
        for (const client of clients) await client.close();
      },
    };
  });
} else {
  console.warn('SKIPPED: KeyStore contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('KeyStore contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
