import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoreContract } from './contract.ts';
import { openSqliteReadStore } from './sqlite.ts';

readStoreContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
  const store = openSqliteReadStore(join(dir, 'read.db'));
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
