import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionStoreContract } from './contract.ts';
import { openSqliteSessionStore } from './sqlite.ts';

sessionStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-sessions-'));
  const store = openSqliteSessionStore(join(dir, 'sessions.db'));
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
