// Where the web app's journeys run (app.browser.e2e.test.ts): the one process `npm start` runs, on
// the embedded default and on a throwaway PostgreSQL, and the split processes behind the front door.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresUnavailable, startPostgres } from '@eventide/testing/postgres-server.ts';
import { NGINX_MISSING, nginxAvailable, startSplitSite } from '../front-door.ts';
import { startService } from '../process.ts';

if (!nginxAvailable) console.warn(`${NGINX_MISSING}: the web app is tested through npm start only`);

export interface Site {
  url: string;
  /** What its processes were started with: what a CLI beside them (the admin's) needs too. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const noPostgres = postgresUnavailable();
if (noPostgres) console.warn(`SKIPPED: the web app on PostgreSQL: ${noPostgres}`);

/** What runs on a site's stores before its processes start (a seed), given their environment. */
export type Prepare = (env: Record<string, string>) => Promise<void>;

/** `npm start`'s one process, on a data directory of its own, with `env`, after `prepare`. */
async function oneProcess(env: Record<string, string> = {}, prepare?: Prepare): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), 'eventide-web-'));
  const all = { DATA_DIR: dataDir, ...env };
  await prepare?.(all);
  const service = await startService(all);
  return {
    url: service.url,
    env: all,
    async stop() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const SITES = [
  { name: 'npm start', shots: '', start: (prepare?: Prepare) => oneProcess({}, prepare) },
  ...(noPostgres
    ? []
    : [
        {
          name: 'npm start on PostgreSQL',
          shots: 'postgres-',
          async start(prepare?: Prepare): Promise<Site> {
            const postgres = await startPostgres();
            const site = await oneProcess({ DATABASE_URL: await postgres.database() }, prepare);
            return {
              ...site,
              async stop() {
                await site.stop();
                await postgres.remove();
              },
            };
          },
        },
      ]),
  ...(nginxAvailable
    ? [{ name: 'the front door of the split processes', shots: 'door-', start: (prepare?: Prepare) => startSplitSite({ prepare }) }]
    : []),
];
