import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookStoreContract } from './contract.ts';
import { openSqliteWebhookStore } from './sqlite.ts';

webhookStoreContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-webhooks-'));
  const path = join(dir, 'read.db');
  const store = openSqliteWebhookStore(path);
  return {
    store,
    another: async () => openSqliteWebhookStore(path),
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
