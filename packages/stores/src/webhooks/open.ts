// Opens the webhooks where the read models are: on PostgreSQL when DATABASE_URL is set, otherwise
// in the embedded read models' file under the data directory. There is no MongoDB adapter yet:
// with MONGO_URL alone they stay in that file, fit for a projector on one node (docs/engines.md).
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { WebhookStore } from './port.ts';
import { openSqliteWebhookStore } from './sqlite.ts';

export async function openWebhookStore(config: Config): Promise<{ store: WebhookStore; description: string }> {
  if (config.DATABASE_URL) {
    const { openPostgresWebhookStore } = await import('./postgres.ts');
    return { store: await openPostgresWebhookStore(config.DATABASE_URL), description: 'PostgreSQL' };
  }
  const path = join(config.dataDir, 'read.db');
  return { store: openSqliteWebhookStore(path), description: `SQLite at ${path}` };
}
