import { describe, expect, it } from 'vitest';
import { ConfigError, listenHost, loadConfig } from './config.ts';

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

describe('where a process listens', () => {
  it('on every interface by default, on loopback alone when told a front door is in front, and where HOST says whatever else', () => {
    expect(listenHost(loadConfig({}))).toBe('0.0.0.0');
    expect(listenHost(loadConfig({ TRUST_PROXY_HOPS: '1' }))).toBe('127.0.0.1');
    expect(listenHost(loadConfig({ TRUST_PROXY_HOPS: '1', HOST: '0.0.0.0' }))).toBe('0.0.0.0');
    expect(listenHost(loadConfig({ HOST: '::1' }))).toBe('::1');
  });

  it('refuses the metrics on the service port where their addresses meet, and takes them apart', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT: the same as PORT/);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000', TRUST_PROXY_HOPS: '1' })).toThrow(/METRICS_PORT: the same as PORT/);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000', HOST: '10.0.0.5', METRICS_HOST: '0.0.0.0' })).toThrow(
      /METRICS_PORT: the same as PORT/,
    );
    expect(loadConfig({ PORT: '3000', METRICS_PORT: '3000', HOST: '10.0.0.5' }).METRICS_PORT).toBe(3000);
    expect(loadConfig({ PORT: '3000', METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
  });
});
