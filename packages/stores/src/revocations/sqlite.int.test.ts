import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { revocationFeedContract } from './contract.ts';
import { openSqliteRevocations } from './sqlite.ts';

revocationFeedContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-revocations-'));
  return {
    open: async () => openSqliteRevocations(join(dir, 'sessions.db'), { pollMs: 10 }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
