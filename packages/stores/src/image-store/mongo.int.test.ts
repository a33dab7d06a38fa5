import { describe, it } from 'vitest';
import { dropMongoDatabase } from '../read-store/mongo.ts';
import { imageStoreContract } from './contract.ts';
import { openMongoImageStore } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  imageStoreContract('MongoDB GridFS', async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_images_${crypto.randomUUID().slice(0, 8)}`;
    const store = await openMongoImageStore(dbUrl.toString());
    return {
      store,
      another: () => openMongoImageStore(dbUrl.toString()),
      async dispose() {
        await store.close();
        await dropMongoDatabase(dbUrl.toString());
      },
    };
  });
} else {
  console.warn('SKIPPED: ImageStore contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('ImageStore contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
