// The liveness and readiness probes of the real processes, as an orchestrator calls them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY, freePort, startService, type RunningService } from './process.ts';

const running: RunningService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-health-'));
  dirs.push(dir);
  return dir;
}

describe('health probes', () => {
  it('npm start: live, and ready once every store it uses answers and the read models have caught up', async () => {
    const service = await startService({ DATA_DIR: dataDir() });
    running.push(service);
    const live = await fetch(`${service.url}/health/live`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toContain('application/health+json');
    expect(await live.json()).toEqual({ status: 'pass' });

    const ready = await fetch(`${service.url}/health/ready`);
    const body = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
    expect({ status: ready.status, body: body.status }).toEqual({ status: 200, body: 'pass' });
    expect(Object.keys(body.checks).sort()).toEqual(
      ['collabStore', 'deadlines', 'eventStore', 'followers', 'keyStore', 'projectionLag', 'readStore', 'sessionStore'].sort(),
    );
    expect(ready.headers.get('cache-control')).toBe('no-store');
    // The public learns each check's status, not the event store's position or the engines' errors.
    for (const check of Object.values(body.checks)) expect(check).toEqual({ status: 'pass' });
  });

  it('a projector whose Kafka does not answer is live but not ready, and says why on the metrics port', async () => {
    const metricsPort = await freePort();
    const service = await startService(
      { DATA_DIR: dataDir(), KAFKA_BROKERS: `127.0.0.1:${await freePort()}`, METRICS_PORT: String(metricsPort) },
      ENTRY.projector,
    );
    running.push(service);
    expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
    type Body = { status: string; checks: Record<string, { status: string; output?: string; observedValue?: number }> };
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as Body;
    expect(body.status).toBe('fail');
    expect(body.checks.eventBus).toEqual({ status: 'fail' });
    expect(body.checks.eventStore).toEqual({ status: 'pass' });

    const operator = await fetch(`http://127.0.0.1:${metricsPort}/health/ready`);
    expect(operator.status).toBe(503);
    const details = (await operator.json()) as Body;
    expect(details.checks.eventBus).toMatchObject({ status: 'fail', output: expect.stringContaining('ECONNREFUSED') });
    expect(details.checks.eventStore).toMatchObject({ status: 'pass', observedValue: expect.any(Number) });
  });
});
