// ShareDB's own adapter suites (218 tests: commits, op ranges, snapshots, submit, subscribe,
// milestones by version and time) against our SQLite stores and our PostgreSQL stores. They are
// mocha suites with `done` callbacks, so they run in mocha, in a child process, and each test reads
// its verdict.
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { postgresUnavailable } from '@eventide/testing/postgres-server.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Mocha's own bound is 2 s a test or hook. On a busy machine the first hook alone starts a
// PostgreSQL server, and a fresh database per test can take longer; a test that hangs is still cut
// off, by this bound and then by vitest's.
const TEST_BOUND_MS = '60000';

async function mocha(spec: string): Promise<void> {
  const mochaBin = fileURLToPath(import.meta.resolve('mocha/bin/mocha.js'));
  const child = spawnInGroup(process.execPath, [mochaBin, '--reporter', 'dot', '--extension', 'ts', '--timeout', TEST_BOUND_MS, spec], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(output).toMatch(/\d{3} passing/);
  expect(output, output).not.toMatch(/failing/);
  expect(code, output).toBe(0);
}

it(
  "passes ShareDB's own database and milestone adapter suites on SQLite",
  () => mocha('collab-service/test/sharedb-suite/adapters.spec.ts'),
  120_000,
);

const noPostgres = postgresUnavailable();
if (noPostgres) console.warn(`SKIPPED: ShareDB's adapter suites on PostgreSQL: ${noPostgres}`);
it.skipIf(noPostgres)(
  `passes ShareDB's own database and milestone adapter suites on PostgreSQL${noPostgres ? ` (skipped: ${noPostgres})` : ''}`,
  () => mocha('collab-service/test/sharedb-suite/postgres-adapters.spec.ts'),
  300_000,
);
