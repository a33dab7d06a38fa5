// Several processes opening one store file at the same moment (the services started together on
// one data directory, or `npm run admin` beside `npm start`) take turns: none fails with
// "database is locked" while another switches a new file to WAL or recovers its log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const MODULE = fileURLToPath(new URL('./sqlite-file.ts', import.meta.url));
const PROCESSES = 4;
const ROUNDS = 6;

function openAndWrite(path: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawnInGroup(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { openSqliteFile } from ${JSON.stringify(MODULE)};
       const db = openSqliteFile(${JSON.stringify(path)}, 'FULL');
       db.exec('CREATE TABLE IF NOT EXISTS opened (pid INTEGER)');
       db.prepare('INSERT INTO opened VALUES (?)').run(process.pid);
       db.close();`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

it(`lets ${PROCESSES} processes open a new file at once, ${ROUNDS} times over, and each write to it`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-open-'));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const path = join(dir, `round-${round}.db`);
      const outcomes = await Promise.all(Array.from({ length: PROCESSES }, () => openAndWrite(path)));
      expect(outcomes.filter((o) => o.code !== 0).map((o) => o.stderr)).toEqual([]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
