// ShareDB's own adapter suites (218 tests: commits, op ranges, snapshots, submit, subscribe,
// milestones by version and time) against our SQLite stores. They are mocha suites with `done`
// callbacks, so they run in mocha, in a child process, and this test reads its verdict.
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

it("passes ShareDB's own database and milestone adapter suites", async () => {
  const child = spawnInGroup(
    process.execPath,
    [
      fileURLToPath(import.meta.resolve('mocha/bin/mocha.js')),
      '--reporter',
      'dot',
      '--extension',
      'ts',
      'collab-service/test/sharedb-suite/adapters.spec.ts',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(output).toMatch(/\d{3} passing/);
  expect(output, output).not.toMatch(/failing/);
  expect(code, output).toBe(0);
}, 120_000);
