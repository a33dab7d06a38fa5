import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parkedEventsContract } from './contract.ts';
import { openSqliteParkedEvents } from './sqlite.ts';

parkedEventsContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-parked-'));
  const parked = openSqliteParkedEvents(join(dir, 'read.db'));
  return {
    parked,
    async dispose() {
      await parked.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
