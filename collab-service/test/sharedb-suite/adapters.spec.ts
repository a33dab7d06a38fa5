// ShareDB's own adapter suites (the ones its MongoDB adapters pass), run by mocha against our
// SQLite op log and milestone store. Started by sharedb-suite.int.test.ts.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteShareDb } from '../../src/store/sqlite-db.ts';
import { SqliteMilestoneDb } from '../../src/store/sqlite-milestones.ts';

const require = createRequire(import.meta.url);
const directory = mkdtempSync(join(tmpdir(), 'sharedb-suite-'));
// The suites never close every database they create: the files go when mocha's process does.
process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(directory, `collab-${++files}.sqlite`);

require('sharedb/test/db.js')({
  create: (callback: (error: Error | null, db?: SqliteShareDb) => void) => callback(null, new SqliteShareDb(freshFile(), 'NORMAL')),
});

type MilestoneCallback = (error: Error | null, db?: SqliteMilestoneDb) => void;
require('sharedb/test/milestone-db.js')({
  // Called as create(callback) or create({ interval }, callback).
  create: (options: { interval?: number } | MilestoneCallback, callback?: MilestoneCallback) => {
    const done = (typeof options === 'function' ? options : callback)!;
    const milestones = new SqliteMilestoneDb(new SqliteShareDb(freshFile(), 'NORMAL').db);
    if (typeof options === 'object') milestones.interval = options.interval;
    done(null, milestones);
  },
});
