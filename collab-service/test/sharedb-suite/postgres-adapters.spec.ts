// ShareDB's own adapter suites, run by mocha against our PostgreSQL op log and milestone store,
// each database a fresh one on a throwaway server. Started by sharedb-suite.int.test.ts, which
// skips it when PostgreSQL cannot run here.
import { createRequire } from 'node:module';
import { startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { PostgresShareDb } from '../../src/store/postgres-db.ts';
import { PostgresMilestoneDb } from '../../src/store/postgres-milestones.ts';

const require = createRequire(import.meta.url);
/** Mocha's global hook (mocha's types are not installed: only its suites use it). */
declare const after: (hook: () => Promise<void>) => void;
let server: Promise<TestPostgres> | undefined;
after(async () => (await server)?.remove());

/** A store on a database of its own. */
async function fresh(): Promise<PostgresShareDb> {
  server ??= startPostgres();
  return PostgresShareDb.open(await (await server).database());
}

require('sharedb/test/db.js')({
  create: (callback: (error: unknown, db?: PostgresShareDb) => void) =>
    fresh().then(
      (db) => callback(null, db),
      (error: unknown) => callback(error),
    ),
});

type MilestoneCallback = (error: unknown, db?: PostgresMilestoneDb) => void;
require('sharedb/test/milestone-db.js')({
  // Called as create(callback) or create({ interval }, callback).
  create: (options: { interval?: number } | MilestoneCallback, callback?: MilestoneCallback) => {
    const done = (typeof options === 'function' ? options : callback)!;
    fresh().then(
      (db) => {
        const milestones = new PostgresMilestoneDb(db.sql);
        if (typeof options === 'object') milestones.interval = options.interval;
        done(null, milestones);
      },
      (error: unknown) => done(error),
    );
  },
});
