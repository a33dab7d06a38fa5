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
      ['collabStore', 'eventStore', 'followers', 'keyStore', 'projectionLag', 'readStore', 'sessionStore'].sort(),
    );
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('a projector whose Kafka does not answer is live but not ready, and says why', async () => {
    const service = await startService({ DATA_DIR: dataDir(), KAFKA_BROKERS: `127.0.0.1:${await freePort()}` }, ENTRY.projector);
    running.push(service);
    expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { status: string; checks: Record<string, { status: string; output?: string }> };
    expect(body.status).toBe('fail');
    expect(body.checks.eventBus).toMatchObject({ status: 'fail', output: expect.stringContaining('ECONNREFUSED') });
    expect(body.checks.eventStore).toMatchObject({ status: 'pass' });
  });
});
