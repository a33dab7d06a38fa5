// A read that does not ask never waits; one that asks waits a bounded time, then says 503.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { compose } from '@eventide/runtime/compose.ts';
import { httpAppOf } from '@eventide/runtime/http.ts';
import { listenOnLoopback } from '@eventide/testing/json-client.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import { until } from '@eventide/testing/wait.ts';
import { projectorService } from '@eventide/projector/src/service.ts';
import { projectorOnThread } from '@eventide/projector/src/thread.ts';
import { queryService } from '@eventide/query-service/src/service.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

it('answers at once from where the read models are, and waits only when asked', async () => {
  await app.projector.stop(); // the read side falls behind from here on
  const written = await app.write('POST', '/users', { name: 'Late', email: 'late@example.com' });
  const plain = await app.request('GET', `/users/${written.body.userId}`);
  expect(plain.status).toBe(404);
  expect(Number(plain.headers.get('read-position'))).toBeLessThan(written.position);

  const asked = await app.request('GET', `/users/${written.body.userId}`, undefined, {
    'Wait-For-Position': String(written.position),
    Prefer: 'wait=1',
  });
  expect(asked.status).toBe(503);
  expect(asked.headers.get('retry-after')).toBe('1');
  expect(asked.body.type).toBe('/problems/not-yet-consistent');
});

it.each([
  ['in this thread', () => projectorService()],
  ['on a thread of its own, as npm start runs it', () => projectorOnThread('test')],
])('on read models already caught up, asks where they are once, not on every read (the projector %s)', async (_, projector) => {
  // The projector opens before the query service and, with nothing left to project, announces
  // only its start: before the query service exists. Reads must still keep what the store said.
  const dir = mkdtempSync(join(tmpdir(), 'eventide-caught-up-'));
  const log = createLogger({ level: 'silent' });
  const composition = await compose(
    { config: loadConfig({ DATA_DIR: dir, ...TEST_ENV }), log },
    { projector: projector(), query: queryService() },
  );
  try {
    await until(() => composition.platform.projected.notifications() > 0, "the projector's announcement of its start");
    const served = vi.spyOn((await composition.platform.readModels()).store, 'servedCheckpoint');
    const { server, url } = await listenOnLoopback(httpAppOf(composition, log));
    composition.attach(server);
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/products`)).status).toBe(200);
    expect(served).toHaveBeenCalledTimes(1);
    await composition.disconnect();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  } finally {
    await composition.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
