// The projecting floor's follower (raw-inserts.ts with PROJECT=1), on a thread of its own as
// `npm start`'s followers are: after each commit of the events file it reads what came after its
// checkpoint, and writes each new user's read-model row into the read store's own table (its
// indexes, the email's among them), the users' count and its checkpoint, one transaction a page,
// at synchronous=NORMAL as the read store writes. Nothing else: no opening of sealed fields, no
// state folded, no version checked, no other follower.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { schema, table } from '@eventide/stores/read-store/sqlite-schema.ts';
import { inWriteTransaction, LIMIT_PLACEHOLDER, openSqliteFile } from '@eventide/stores/sqlite-file.ts';

const PAGE = 500;
const GENERATION = 1;
const { dataDir } = workerData as { dataDir: string };

const events = openSqliteFile(join(dataDir, 'raw.db'), 'FULL');
const read = openSqliteFile(join(dataDir, 'raw-read.db'), 'NORMAL');
read.exec(schema(GENERATION, []));
const after = events.prepare(
  `SELECT position, stream_id, type, data FROM events WHERE position > ? ORDER BY position LIMIT ${LIMIT_PLACEHOLDER}`,
);
const insertUser = read.prepare(`INSERT INTO ${table('users', GENERATION)} (id, version, seq, deleted, body) VALUES (?, 0, ?, 0, ?)`);
const count = read.prepare(
  `INSERT INTO ${table('counts', GENERATION)} (collection, fields, value, n) VALUES ('users', '', '', ?)
   ON CONFLICT (collection, fields, value) DO UPDATE SET n = n + excluded.n`,
);
const checkpoint = read.prepare(
  `INSERT INTO ${table('checkpoints', GENERATION)} (name, position) VALUES ('read-models', ?)
   ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
);

let position = 0;
/** Projects everything committed so far; a commit told of meanwhile wakes it again. */
function follow(): void {
  for (;;) {
    const rows = after.all(position, PAGE) as Array<{ position: number; stream_id: string; type: string; data: string }>;
    if (rows.length === 0) return;
    inWriteTransaction(read, () => {
      let users = 0;
      for (const row of rows) {
        if (row.type !== 'user:created') continue;
        insertUser.run(row.stream_id.slice('user-'.length), row.position, row.data);
        users++;
      }
      if (users > 0) count.run(users);
      position = Number(rows.at(-1)!.position);
      checkpoint.run(position);
    });
  }
}

parentPort!.on('message', follow);
