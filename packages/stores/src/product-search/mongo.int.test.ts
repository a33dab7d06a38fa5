import { describe, it } from 'vitest';
import { dropMongoDatabase, openMongoReadStore } from '../read-store/mongo.ts';
import { productSearchContract } from './contract.ts';
import { mongoProductIndex, mongoProductSearch } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  productSearchContract('MongoDB', async () => {
    // A database of its own per test, so that generations start fresh.
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_search_${crypto.randomUUID().slice(0, 8)}`;
    const store = await openMongoReadStore(dbUrl.toString(), [mongoProductIndex]);
    return {
      store,
      search: mongoProductSearch(store),
      async dispose() {
        await store.close();
        await dropMongoDatabase(dbUrl.toString());
      },
    };
  });
} else {
  console.warn('SKIPPED: ProductSearch contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('ProductSearch contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
