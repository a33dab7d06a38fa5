// The deadline schedule on MongoDB (the mongodb driver), in a collection of the read models'
// database. Fit for production: any number of processes share it.
import { MongoClient, type AnyBulkWriteOperation } from 'mongodb';
import type { DeadlineSchedule, ScheduledDeadline } from './port.ts';

type Stored = Omit<ScheduledDeadline, 'key'> & { _id: string };

const toScheduled = ({ _id, process, subject, next, at, deadline }: Stored): ScheduledDeadline => ({
  key: _id,
  process,
  subject,
  next,
  at,
  deadline,
});

export async function openMongoDeadlineSchedule(url: string): Promise<DeadlineSchedule> {
  const client = new MongoClient(url);
  await client.connect();
  const deadlines = client.db().collection<Stored>('deadlines');
  await deadlines.createIndex({ at: 1, _id: 1 });
  const sorted = { at: 1, _id: 1 } as const;

  return {
    async put(put, cleared) {
      const kept = new Set(put.map((r) => r.key));
      const operations: AnyBulkWriteOperation<Stored>[] = [
        ...cleared.filter((key) => !kept.has(key)).map((key) => ({ deleteOne: { filter: { _id: key } } })),
        ...put.map(({ key, ...rest }) => ({ replaceOne: { filter: { _id: key }, replacement: rest, upsert: true } })),
      ];
      if (operations.length > 0) await deadlines.bulkWrite(operations, { ordered: true });
    },
    async due(now, limit) {
      return (
        await deadlines
          .find({ at: { $lte: now } })
          .sort(sorted)
          .limit(limit)
          .toArray()
      ).map(toScheduled);
    },
    async earliest() {
      const [first] = await deadlines.find({}).sort(sorted).limit(1).toArray();
      return first?.at;
    },
    async list({ after, limit }) {
      const filter = after ? { $or: [{ at: { $gt: after.at } }, { at: after.at, _id: { $gt: after.key } }] } : {};
      return (await deadlines.find(filter).sort(sorted).limit(limit).toArray()).map(toScheduled);
    },
    count: () => deadlines.countDocuments(),
    close: () => client.close(),
  };
}
