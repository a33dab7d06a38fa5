// The deadline schedule's contract on a real PostgreSQL (a throwaway cluster), a database of its own for each test.
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { deadlineScheduleContract } from './contract.ts';
import { openPostgresDeadlineSchedule } from './postgres.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

if (unavailable) {
  console.warn(`SKIPPED: the deadline schedule's contract on PostgreSQL: ${unavailable}`);
  describe('DeadlineSchedule contract: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  deadlineScheduleContract('PostgreSQL', async () => {
    server ??= startPostgres();
    const url = await (await server).database();
    const schedule = await openPostgresDeadlineSchedule(url);
    return { schedule, another: () => openPostgresDeadlineSchedule(url), dispose: () => schedule.close() };
  });
}
