import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('the configuration of engines', () => {
  it('takes a PostgreSQL URL as DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://eventide@db.internal:5432/eventide' }).DATABASE_URL).toBe(
      'postgresql://eventide@db.internal:5432/eventide',
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://db/eventide' }).DATABASE_URL).toBe('postgres://db/eventide');
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, naming it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/eventide' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/eventide' })).toThrow(/DATABASE_URL: must be a PostgreSQL URL/);
  });

  it('refuses two engines for the log', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://db/eventide', EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' })).toThrow(
      /DATABASE_URL: EVENTSTORE_URL is set too/,
    );
  });
});
