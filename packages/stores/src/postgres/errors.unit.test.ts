import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../unavailable.ts';
import { isUnavailable, reaching } from './errors.ts';

describe("PostgreSQL's errors at the adapters' boundary", () => {
  it('takes a server that cannot be reached, going away or starting for unavailable', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('connect ENOENT /tmp/x/.s.PGSQL.5432'), { code: 'ENOENT' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ])
      expect(isUnavailable(error), error.message).toBe(true);
  });

  it('leaves a statement that is wrong as it is', async () => {
    const wrong = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    expect(isUnavailable(wrong)).toBe(false);
    expect(isUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    await expect(reaching('event store', () => Promise.reject(wrong))).rejects.toBe(wrong);
    await expect(reaching('event store', () => Promise.reject(new Error('Connection terminated unexpectedly')))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  });
});
