import { describe, it } from 'vitest';
import { dropMongoDatabase } from '../read-store/mongo.ts';
import { deadlineScheduleContract } from './contract.ts';
import { openMongoDeadlineSchedule } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  deadlineScheduleContract('MongoDB', async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_deadlines_${crypto.randomUUID().slice(0, 8)}`;
    const schedule = await openMongoDeadlineSchedule(dbUrl.toString());
    return {
      schedule,
      another: () => openMongoDeadlineSchedule(dbUrl.toString()),
      async dispose() {
        await schedule.close();
        await dropMongoDatabase(dbUrl.toString());
      },
    };
  });
} else {
  console.warn('SKIPPED: DeadlineSchedule contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('DeadlineSchedule contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
