// GET /metrics as Prometheus scrapes it: on the process `npm start` runs, on its own port, with
// every family the operator needs, and each moving when what it counts happens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { familiesOf, sampleOf } from '@eventide/testing/prometheus-text.ts';
import { openText, submit } from '@eventide/testing/collab/editor-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { freePort, startService, type RunningService } from './process.ts';
import { startCollabApp } from './collab/harness.ts';

describe('metrics of npm start, on METRICS_PORT', () => {
  let service: RunningService;
  let dir: string;
  let metricsUrl: string;
  const scrape = async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventide-metrics-'));
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    service = await startService({ DATA_DIR: dir, METRICS_PORT: String(port), RATE_LIMIT_SEARCH_PER_SECOND: '1' });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('declares every family, and is not served on the public port', async () => {
    expect(familiesOf(await scrape())).toEqual(
      expect.arrayContaining([
        'http_request_duration_seconds',
        'eventstore_append_duration_seconds',
        'projector_lag_events',
        'projector_lag_seconds',
        'publisher_lag_events',
        'rate_limit_refusals_total',
        'collab_websocket_connections',
        'collab_ops_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_p99_seconds',
      ]),
    );
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
  });

  it("tells the operator what the process runs, where the public's /health says only that it answers", async () => {
    const operator = await (await fetch(metricsUrl.replace(/\/metrics$/, '/health'))).json();
    expect(operator).toMatchObject({ status: 'ok', eventStore: expect.stringContaining(dir), projectedTo: expect.any(Number) });
    expect(await (await fetch(`${service.url}/health`)).json()).toEqual({ status: 'ok' });
  });

  it('counts requests by route template, appends, and rate-limit refusals', async () => {
    const before = await scrape();
    const client = jsonClient(service.url);
    const created = await client.request('POST', '/users', { name: 'Metered', email: `metered-${Date.now()}@example.com` });
    expect(created.status).toBe(201);
    const id = (created.body as { userId: string }).userId;
    for (let i = 0; i < 3; i++) expect((await client.request('GET', `/users/${id}`)).status).toBeLessThan(500);
    // One search a second is allowed here: of three at once, at least two are refused.
    const searches = await Promise.all([1, 2, 3].map(() => client.request('GET', '/search?q=kettle')));
    expect(searches.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);

    const after = await scrape();
    const requests = (text: string, labels: Record<string, string>) => sampleOf(text, 'http_request_duration_seconds_count', labels);
    expect(
      requests(after, { method: 'POST', route: '/users', status: '201' }) - requests(before, { method: 'POST', route: '/users' }),
    ).toBe(1);
    // The template, never the id: one series for every user.
    expect(requests(after, { method: 'GET', route: '/users/:id' })).toBeGreaterThanOrEqual(3);
    expect(after).not.toContain(id);
    expect(requests(after, { route: '/search', status: '429' })).toBeGreaterThanOrEqual(2);
    expect(
      sampleOf(after, 'rate_limit_refusals_total', { limit: 'search' }) -
        sampleOf(before, 'rate_limit_refusals_total', { limit: 'search' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sampleOf(after, 'eventstore_append_duration_seconds_count', { outcome: 'ok' }) -
        sampleOf(before, 'eventstore_append_duration_seconds_count', { outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    // The projector catches up with the sign-up: its lag reads 0 once it has.
    await until(async () => sampleOf(await scrape(), 'projector_lag_events') === 0, 'the projector lag to read 0');
  });
});

describe('metrics of collaborative editing', () => {
  it('counts open connections and applied operations', async () => {
    const app = await startCollabApp();
    try {
      const owner = await app.newUser();
      const text = () => app.metrics.registry.metrics();
      const opsBefore = sampleOf(await text(), 'collab_ops_total');
      const client = await owner.editor();
      await until(async () => sampleOf(await text(), 'collab_websocket_connections') === 1, 'one open connection');
      const doc = await openText(client.doc('metered'));
      await submit(doc, [{ insert: 'a' }]);
      await submit(doc, [{ retain: 1 }, { insert: 'b' }]);
      expect(sampleOf(await text(), 'collab_ops_total') - opsBefore).toBeGreaterThanOrEqual(2);
      client.close();
      await until(async () => sampleOf(await text(), 'collab_websocket_connections') === 0, 'the connection to be counted closed');
    } finally {
      await app.close();
    }
  });
});
