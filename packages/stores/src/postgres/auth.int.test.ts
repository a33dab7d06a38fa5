// Sign-in's stores on a real PostgreSQL (a throwaway cluster): the session store's and the
// revocation feed's contracts, a database of their own for each test.
import { afterAll, describe, it } from 'vitest';
import type pg from 'pg';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { revocationFeedContract } from '../revocations/contract.ts';
import { postgresRevocations } from '../revocations/postgres.ts';
import { sessionStoreContract } from '../session-store/contract.ts';
import { postgresSessionStore } from '../session-store/postgres.ts';
import { migrateAuth } from './auth-schema.ts';
import { openPool } from './pool.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

/** A new database with the auth tables, and its URL. */
async function database(): Promise<{ url: string; pool: pg.Pool }> {
  server ??= startPostgres();
  const url = await (await server).database();
  const pool = openPool(url, 4);
  await migrateAuth(pool);
  return { url, pool };
}

if (unavailable) {
  console.warn(`SKIPPED: sign-in's stores on PostgreSQL: ${unavailable}`);
  describe("sign-in's stores on PostgreSQL", () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  sessionStoreContract('PostgreSQL', async () => {
    const { pool } = await database();
    return { store: postgresSessionStore(pool), dispose: () => pool.end() };
  });
  revocationFeedContract('PostgreSQL', async () => {
    const { url, pool } = await database();
    const pools: pg.Pool[] = [pool];
    return {
      // Each feed as one more process would open it: a pool of its own on the same database.
      async open() {
        const own = openPool(url, 2);
        pools.push(own);
        return postgresRevocations(own, url);
      },
      async dispose() {
        for (const p of pools) await p.end();
      },
    };
  });
}
