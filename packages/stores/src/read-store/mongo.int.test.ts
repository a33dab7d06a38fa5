import { describe, it } from 'vitest';
import { readStoreContract } from './contract.ts';
import { dropMongoDatabase, openMongoReadStore } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  readStoreContract('MongoDB', async () => {
    // A database of its own per test, so that generations start fresh.
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_contract_${crypto.randomUUID().slice(0, 8)}`;
    const store = await openMongoReadStore(dbUrl.toString());
    return {
      store,
      async dispose() {
        await store.close();
        await dropMongoDatabase(dbUrl.toString());
      },
    };
  });
} else {
  console.warn('SKIPPED: ReadStore contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('ReadStore contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
