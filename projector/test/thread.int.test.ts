// The projector service on a thread of its own (what `npm start` runs): it follows the stores the
// process's configuration names (not the environment's), projects what this thread appends,
// announces each move on the platform's signal, reports each follower's position for GET /health,
// and its thread stops with the composition. On an empty store it starts with the first event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { compose, type Platform } from '@eventide/runtime/compose.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import { until } from '@eventide/testing/wait.ts';
import { projectorBesideRequests, projectorOnThread } from '../src/thread.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-projector-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function createProduct(platform: Platform, productId = newId()) {
  return platform.eventStore().then(({ store }) =>
    store.append(
      `product-${productId}`,
      [
        {
          id: newId(),
          type: 'product:created',
          data: {
            productId,
            ...PRODUCT.complete({ name: 'Threaded kettle', description: 'Boils water', price: { amount: 1999, currency: 'EUR' } }),
          },
          metadata: { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } },
        },
      ],
      { expectedRevision: 'no_stream' },
    ),
  );
}

it('projects, publishes and checks for deletions on its own thread, and says how far each has got', async () => {
  const composition = await compose(
    { config: loadConfig({ ...TEST_ENV, DATA_DIR: dir }), log: createLogger({ level: 'silent' }) },
    { projector: projectorOnThread('test') },
  );
  const { platform } = composition;
  try {
    const productId = newId();
    const announcedBefore = platform.projected.notifications();
    const appended = await createProduct(platform, productId);
    const health = () => composition.health() as { projectedTo: number; publishedTo: number; forgottenTo: number; readStore: string };
    await until(
      () =>
        health().projectedTo >= appended.position && health().publishedTo >= appended.position && health().forgottenTo >= appended.position,
      'every follower to reach the append',
    );
    expect(health().readStore).toContain(join(dir, 'read.db'));
    expect(platform.projected.notifications()).toBeGreaterThan(announcedBefore);
    const read = (await platform.readModels()).store;
    expect((await read.get('products', productId))?.fields).toMatchObject({ name: 'Threaded kettle' });
  } finally {
    await composition.close();
  }
});

it.each([
  ['off', false],
  ['on', true],
])('FOLLOWERS_THREAD=%s: the followers run on a thread of their own: %s', async (setting, threaded) => {
  const own = mkdtempSync(join(tmpdir(), 'eventide-followers-setting-'));
  const composition = await compose(
    { config: loadConfig({ ...TEST_ENV, DATA_DIR: own, FOLLOWERS_THREAD: setting }), log: createLogger({ level: 'silent' }) },
    { projector: projectorBesideRequests('test') },
  );
  try {
    // On this thread, the service hands out its followers; on another, only what that thread reports.
    expect('projector' in composition.services.projector).toBe(!threaded);
    await createProduct(composition.platform);
    await until(() => composition.platform.projected.notifications() > 0, "the projector's announcement of its progress");
  } finally {
    await composition.close();
    rmSync(own, { recursive: true, force: true });
  }
});

it('starts the thread with the first event on an empty store, and at once on a store with events', async () => {
  const own = mkdtempSync(join(tmpdir(), 'eventide-followers-lazy-'));
  const open = () =>
    compose(
      { config: loadConfig({ ...TEST_ENV, DATA_DIR: own }), log: createLogger({ level: 'silent' }) },
      { projector: projectorOnThread('test') },
    );
  try {
    const empty = await open();
    try {
      expect(empty.health()).toMatchObject({ followers: 'waiting for the first event', projectedTo: 0 });
      const appended = await createProduct(empty.platform);
      await until(
        () => (empty.health() as { projectedTo: number }).projectedTo >= appended.position,
        'the thread started by the first event to project it',
      );
    } finally {
      await empty.close();
    }
    const withEvents = await open();
    try {
      expect(withEvents.health()).not.toHaveProperty('followers');
      expect(withEvents.health()).toMatchObject({ projectedTo: 1 });
    } finally {
      await withEvents.close();
    }
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

it('starts the thread again when it dies, says it is down meanwhile, and goes on from the checkpoints', async () => {
  const own = mkdtempSync(join(tmpdir(), 'eventide-followers-restart-'));
  const composition = await compose(
    { config: loadConfig({ ...TEST_ENV, DATA_DIR: own }), log: createLogger({ level: 'silent' }) },
    { projector: projectorOnThread('test') },
  );
  const projected = () => (composition.health() as { projectedTo: number }).projectedTo;
  try {
    const first = await createProduct(composition.platform);
    await until(() => projected() >= first.position, 'the first product projected');
    const thread = composition.services.projector.thread()!;
    await thread.kill();
    await until(() => 'down' in thread.state(), 'the supervisor to say the thread is down');
    const ready = await composition.ready();
    expect(ready.checks.followers).toMatchObject({ status: 'fail', output: expect.stringMatching(/the followers' thread ended/) });
    // Written while the thread is down: the new thread projects it from the checkpoint.
    const second = await createProduct(composition.platform);
    await until(() => thread.restarts === 1 && !('down' in thread.state()), 'the thread started again', 60_000);
    await until(() => projected() >= second.position, 'the product written while it was down projected');
  } finally {
    await composition.close();
    rmSync(own, { recursive: true, force: true });
  }
});
