import { describe, it } from 'vitest';
import { sessionStoreContract } from './contract.ts';
import { openMongoSessionStore } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  sessionStoreContract('MongoDB', async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_sessions_${crypto.randomUUID().slice(0, 8)}`;
    const { store, client } = await openMongoSessionStore(dbUrl.toString());
    return {
      store,
      async dispose() {
        await client.db().dropDatabase();
        await store.close();
      },
    };
  });
} else {
  console.warn('SKIPPED: SessionStore contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('SessionStore contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
