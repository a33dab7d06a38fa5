// `DATABASE_URL=postgresql://… npm run move-to-postgres`: moves the embedded stores of DATA_DIR
// (default ./data) into that database, which must be empty, and compares every table moved
// (move.ts). Stop every process on DATA_DIR first. Exit 0: moved and the same on both sides;
// 1: a table differs (the database is left as it is, for a look); 2: refused, nothing moved.
import { loadConfig, ConfigError } from '@eventide/kernel/config.ts';
import { MoveRefusedError, moveToPostgres } from './move.ts';

const number = (n: number) => n.toLocaleString('en');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
if (!config.DATABASE_URL) {
  console.error(
    'set DATABASE_URL to the PostgreSQL database to move into (an empty one), e.g. postgresql://eventide:secret@db:5432/eventide',
  );
  process.exit(2);
}

console.log(`moving the embedded stores of ${config.dataDir} into PostgreSQL`);
const started = performance.now();
/** The tenth of each table last reported: a line every 10% of a large table. */
const reported = new Map<string, number>();
try {
  const checks = await moveToPostgres({
    dataDir: config.dataDir,
    url: config.DATABASE_URL,
    onProgress({ table, copied, of }) {
      const tenth = Math.floor((copied * 10) / of);
      if (tenth === reported.get(table)) return;
      reported.set(table, tenth);
      console.log(`  ${table}: ${number(copied)} of ${number(of)}`);
    },
  });
  console.log(`copied in ${((performance.now() - started) / 1000).toFixed(1)} s; compared:`);
  for (const check of checks) {
    console.log(`  ${check.same ? 'same' : 'DIFFERENT'}  ${check.table}: ${number(check.rows)} rows, sha256 ${check.digest.slice(0, 16)}`);
  }
  if (checks.some((check) => !check.same)) {
    console.error('the copy differs from the embedded stores: the database is left as it is; empty it before moving again');
    process.exit(1);
  }
  console.log('done: start the processes with this DATABASE_URL; the projector rebuilds the read models from the events');
} catch (error) {
  if (!(error instanceof MoveRefusedError)) throw error;
  console.error(`refused: ${error.message}`);
  process.exit(2);
}
