// The production engine's outage: PostgreSQL killed with SIGKILL (every process of the server, as
// a crash of its machine's processes) while clients write through the service. Writes fail while
// it is away, and readiness says so; once it is back, the service takes writes again by itself,
// with no restart of its own, and every write it acknowledged is in the log, exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { until } from '@eventide/testing/wait.ts';
import { openPostgresEventStore } from '@eventide/stores/event-store/postgres.ts';
import { startService, type RunningService } from './process.ts';

const unavailable = postgresUnavailable();
if (unavailable) console.warn(`SKIPPED: the service through a PostgreSQL outage: ${unavailable}`);

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-pg-outage-'));
let server: TestPostgres | undefined;
let service: RunningService | undefined;
afterAll(async () => {
  await service?.stop();
  await server?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

const ready = async (url: string) => (await fetch(`${url}/health/ready`)).status;

describe.skipIf(unavailable)('the service on PostgreSQL, through an outage of it', () => {
  it('refuses writes and is not ready while PostgreSQL is down, then goes on by itself, every acknowledged write kept', async () => {
    server = await startPostgres();
    const env = { DATA_DIR: dataDir, DATABASE_URL: await server.database() };
    service = await startService(env);
    const url = service.url;
    await until(async () => (await ready(url)) === 200, 'the service ready on PostgreSQL');

    const acknowledged: Array<{ userId: string; email: string }> = [];
    const refused: number[] = [];
    let writing = true;
    // Four writers until the end; whatever was answered 201 must be there afterwards.
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const email = `pg-w${w}-${i}@example.com`;
        const reply = await fetch(`${url}/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `W${w}`, email }),
        });
        const body = (await reply.json()) as { userId: string };
        if (reply.status === 201) acknowledged.push({ userId: body.userId, email });
        else refused.push(reply.status);
      }
    });
    await until(
      () => acknowledged.length >= 40,
      () => `40 sign-ups acknowledged before the outage (${acknowledged.length})`,
    );

    await server.stop({ kill: true });
    const beforeOutage = acknowledged.length;
    await until(async () => (await ready(url)) === 503, 'readiness to fail while PostgreSQL is down');
    await until(() => refused.length > 0, 'a write refused while PostgreSQL is down');
    expect(refused.every((status) => status === 503)).toBe(true);

    await server.restart();
    await until(async () => (await ready(url)) === 200, 'the service ready again, with no restart of its own');
    await until(
      () => acknowledged.length >= beforeOutage + 40,
      () => `40 more sign-ups acknowledged after PostgreSQL came back (${acknowledged.length - beforeOutage})`,
    );
    writing = false;
    await Promise.all(writers);

    // Each acknowledged sign-up is in the log, once: its user's stream begins with its creation.
    const log = await openPostgresEventStore({ url: env.DATABASE_URL });
    try {
      for (const user of acknowledged) {
        const [created, ...rest] = await log.readStream(`user-${user.userId}`);
        expect(created?.type, user.userId).toBe('user:created');
        expect(
          rest.filter((event) => event.type === 'user:created'),
          user.userId,
        ).toEqual([]);
      }
    } finally {
      await log.close();
    }
    console.log(
      `postgres outage: ${acknowledged.length} sign-ups acknowledged (${beforeOutage} before the kill), ${refused.length} refused while it was down (${[...new Set(refused)].join(', ')}), all kept`,
    );
  });
});
