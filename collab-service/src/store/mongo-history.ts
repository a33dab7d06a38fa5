// The history a document keeps, on MongoDB (history.ts): sharedb-mongo's ops in `o_<collection>`
// and sharedb-milestone-mongo's milestones in `m_<collection>`, each with the document id in `d`.
// sharedb-mongo reads ops back from the snapshot's last op, link by link: letting the oldest go
// leaves every link it follows in place.
import type { Db } from 'mongodb';
import { firstKept, type HistoryStore } from './history.ts';

export function mongoHistory(mongo: Db): HistoryStore {
  const ops = (collection: string) => mongo.collection(`o_${collection}`);
  const milestones = (collection: string) => mongo.collection(`m_${collection}`);
  return {
    async keepFrom(collection, id, current, limits) {
      const rows = await ops(collection)
        .aggregate<{ v: number; bytes: number }>([
          { $match: { d: id, v: { $gte: Math.max(0, current - limits.ops) } } },
          { $sort: { v: -1 } },
          { $project: { _id: 0, v: 1, bytes: { $bsonSize: '$$ROOT' } } },
        ])
        .toArray();
      return firstKept(current, rows, limits);
    },
    async reachedAt(collection, id, version) {
      const op = await ops(collection).findOne({ d: id, v: version - 1 }, { projection: { 'm.ts': 1 } });
      return (op?.m as { ts?: number } | undefined)?.ts;
    },
    async letGo(collection, id, from, keep) {
      await ops(collection).deleteMany({ d: id, v: { $lt: from } });
      const [newest] = await milestones(collection).find({ d: id }).sort({ v: -1 }).limit(1).project({ v: 1 }).toArray();
      await milestones(collection).deleteMany({ d: id, v: { $nin: [from, newest?.v ?? from, ...keep] } });
    },
    async milestones(collection, id) {
      const found = await milestones(collection)
        .find({ d: id })
        .sort({ v: -1 })
        .project<{ v: number; m?: { mtime?: number } }>({ v: 1, 'm.mtime': 1 })
        .toArray();
      return found.map(({ v, m }) => (m?.mtime === undefined ? { v } : { v, mtime: m.mtime }));
    },
    async oldestOp(collection, id) {
      const [oldest] = await ops(collection).find({ d: id }).sort({ v: 1 }).limit(1).project<{ v: number }>({ v: 1 }).toArray();
      return oldest?.v;
    },
    async forget(collection, id) {
      await ops(collection).deleteMany({ d: id });
      await milestones(collection).deleteMany({ d: id });
    },
  };
}
