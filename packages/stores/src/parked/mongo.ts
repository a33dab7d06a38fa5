// Parked events on MongoDB (the mongodb driver), in a collection of the read models' database.
// Fit for production: the followers run in one projector process; the console reads from any.
import { MongoClient, type AnyBulkWriteOperation, type Filter } from 'mongodb';
import type { ParkedCounts, ParkedEvent, ParkedEvents } from './port.ts';

type Stored = ParkedEvent & { _id: string };

const idOf = (lot: string, position: number) => `${lot}:${position}`;
const toParked = ({ _id, ...parked }: Stored): ParkedEvent => parked;

export async function openMongoParkedEvents(url: string): Promise<ParkedEvents> {
  const client = new MongoClient(url);
  await client.connect();
  const parked = client.db().collection<Stored>('parked_events');
  await parked.createIndex({ lot: 1, position: 1 });
  await parked.createIndex({ lot: 1, streamId: 1, position: 1 });
  await parked.createIndex({ position: 1, lot: 1 });
  const failed = (lot: string, which: number | 'all'): Filter<Stored> => ({
    lot,
    behind: { $exists: false },
    ...(which === 'all' ? {} : { position: which }),
  });

  return {
    async park(events) {
      if (events.length === 0) return;
      await parked.bulkWrite(
        events.map((event): AnyBulkWriteOperation<Stored> => {
          const { parkedAt, ...rest } = event;
          // Absent fields are taken off, not written as null.
          const changing = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
          const unset = { ...(event.behind === undefined ? { behind: '' } : {}), ...(event.request ? {} : { request: '' }) };
          return {
            updateOne: {
              filter: { _id: idOf(event.lot, event.position) },
              update: {
                $set: changing as Partial<Stored>,
                $setOnInsert: { parkedAt },
                ...(Object.keys(unset).length ? { $unset: unset as Record<string, ''> } : {}),
              },
              upsert: true,
            },
          };
        }),
        { ordered: true },
      );
    },
    async list({ lot, after, limit }) {
      const from = after ?? { position: -1, lot: '' };
      const filter: Filter<Stored> =
        lot === undefined
          ? { $or: [{ position: { $gt: from.position } }, { position: from.position, lot: { $gt: from.lot } }] }
          : { lot, position: { $gt: from.position } };
      const sort = lot === undefined ? { position: 1, lot: 1 } : { position: 1 };
      return (
        await parked
          .find(filter)
          .sort(sort as never)
          .limit(limit)
          .toArray()
      ).map(toParked);
    },
    async get(lot, position) {
      const found = await parked.findOne({ _id: idOf(lot, position) });
      return found ? toParked(found) : undefined;
    },
    async ofStream(lot, streamId) {
      return (await parked.find({ lot, streamId }).sort({ position: 1 }).toArray()).map(toParked);
    },
    async blockedStreams(lot) {
      const found = await parked
        .aggregate<{ _id: string; first: number }>([{ $match: { lot } }, { $group: { _id: '$streamId', first: { $min: '$position' } } }])
        .toArray();
      return new Map(found.map((row) => [row._id, row.first]));
    },
    async request(lot, which, request) {
      return (await parked.updateMany(failed(lot, which), { $set: { request } })).modifiedCount;
    },
    async requested(lot, limit) {
      return (
        await parked
          .find({ lot, request: { $exists: true } })
          .sort({ position: 1 })
          .limit(limit)
          .toArray()
      ).map(toParked);
    },
    async release(lot, positions) {
      if (positions.length > 0) await parked.deleteMany({ _id: { $in: positions.map((position) => idOf(lot, position)) } });
    },
    async counts() {
      const found = await parked
        .aggregate<{ _id: string; parked: number; held: number; oldest: number | null }>([
          {
            $group: {
              _id: '$lot',
              parked: { $sum: { $cond: [{ $ifNull: ['$behind', false] }, 0, 1] } },
              held: { $sum: { $cond: [{ $ifNull: ['$behind', false] }, 1, 0] } },
              oldest: { $min: { $cond: [{ $ifNull: ['$behind', false] }, null, '$position'] } },
            },
          },
        ])
        .toArray();
      const counts = new Map<string, ParkedCounts>();
      for (const row of found) {
        const oldest = row.oldest === null ? null : await parked.findOne({ _id: idOf(row._id, row.oldest) });
        counts.set(row._id, { parked: row.parked, held: row.held, ...(oldest ? { oldest: toParked(oldest) } : {}) });
      }
      return counts;
    },
    async forget(lot) {
      await parked.deleteMany({ lot });
    },
    async close() {
      await client.close();
    },
  };
}
