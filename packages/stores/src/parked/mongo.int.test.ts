import { describe, it } from 'vitest';
import { dropMongoDatabase } from '../read-store/mongo.ts';
import { parkedEventsContract } from './contract.ts';
import { openMongoParkedEvents } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  parkedEventsContract('MongoDB', async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_parked_${crypto.randomUUID().slice(0, 8)}`;
    const parked = await openMongoParkedEvents(dbUrl.toString());
    return {
      parked,
      async dispose() {
        await parked.close();
        await dropMongoDatabase(dbUrl.toString());
      },
    };
  });
} else {
  console.warn('SKIPPED: ParkedEvents contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('ParkedEvents contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
