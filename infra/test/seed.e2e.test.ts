// `npm run seed` as a user runs it: a shop's history written through the write side, read models
// built from it, a store that already has events refused unless told, and bad arguments refused
// with the usage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { EVENT_NAMES, parsePayload, type EventName } from '@eventide/kernel/events/catalogue.ts';
import { openReadModels } from '@eventide/stores/read-models/open.ts';
import { openImageStore } from '@eventide/stores/image-store/open.ts';
import { READ_MODELS_CHECKPOINT } from '@eventide/stores/read-store/port.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'eventide-seed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function npmSeed(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawnInGroup('npm', ['run', '--silent', 'seed', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

async function stores() {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const read = await openReadModels(config);
  return { events: (await openEventStore(config)).store, read: read.store, search: read.search };
}

describe('npm run seed', { timeout: 120_000 }, () => {
  it('writes about the events asked for, every one valid, and builds the read models from them', async () => {
    const { code, output } = await npmSeed('--events', '3000');
    expect(code, output).toBe(0);
    expect(output).toMatch(/the read models, built meanwhile, caught up/);
    expect(output).toMatch(/done: [\d,]+ events \([\d,]+ users, [\d,]+ products, [\d,]+ orders\)/);

    const { events, read, search } = await stores();
    try {
      const all = await events.readAll({ after: 0, limit: 10_000 });
      // At least what was asked; beyond it, only what the 64 commands in flight at the end add (an order's life is at most 7 events).
      expect(all.length).toBeGreaterThanOrEqual(3000);
      expect(all.length).toBeLessThanOrEqual(3000 + 64 * 7);
      const publicNames = new Set<string>(EVENT_NAMES);
      for (const event of all) if (publicNames.has(event.type)) parsePayload(event.type as EventName, event.data);
      const count = (type: string) => all.filter((e) => e.type === type).length;
      expect(count('product:created')).toBeGreaterThan(2000);
      expect(count('user:created')).toBeGreaterThan(10);
      expect(count('order:created')).toBeGreaterThan(10);
      // Orders move along their life: some are paid, some delivered, some cancelled.
      const statuses = new Set(
        all.filter((e) => e.type === 'order:updated').map((e) => (e.data as { changes: { status?: string } }).changes.status),
      );
      expect([...statuses]).toEqual(expect.arrayContaining(['placed', 'paid', 'shipped', 'delivered', 'cancelled']));

      // The read models are there: what npm start would serve.
      const products = await read.list('products', { limit: 5, beforeSeq: null });
      expect(products.items).toHaveLength(5);
      // The newest products have a picture each, kept where npm start serves pictures from.
      const images = (await openImageStore(loadConfig({ ...process.env, DATA_DIR: dataDir }))).store;
      for (const product of products.items) {
        expect(product.fields.images).toHaveLength(1);
        expect((await images.get(product.fields.images[0]!.imageId, 'small'))?.length).toBeGreaterThan(100);
      }
      await images.close();
      const word = String(products.items[0]!.fields.name).split(' ').at(-1)!;
      expect((await search.search(word, 5)).hits.length).toBeGreaterThan(0);
      const orders = await read.list('orders', { limit: 1, offset: 0 });
      expect(orders.total).toBe(count('order:created'));
    } finally {
      await read.close();
      await events.close();
    }
  });

  it('refuses a store that already has events unless given --append, and then adds to it', async () => {
    const refused = await npmSeed('--events', '100');
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(/already holds [\d,]+ events; give --append/);

    const { events: before } = await stores();
    const head = await before.head();
    await before.close();
    const appended = await npmSeed('--events', '100', '--append', '--seed', '2');
    expect(appended.code, appended.output).toBe(0);
    const { events: after, read } = await stores();
    try {
      expect(await after.head()).toBeGreaterThanOrEqual(head + 100);
      // The read models, built beside the appends, have every event of both runs.
      expect(await read.servedCheckpoint(READ_MODELS_CHECKPOINT)).toBe(await after.head());
    } finally {
      await read.close();
      await after.close();
    }
  });

  it('refuses missing or bad arguments with the usage', async () => {
    for (const args of [[], ['--events', 'many'], ['--events', '0'], ['--events', '10', '--colour']]) {
      const { code, output } = await npmSeed(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(output).toContain('usage: npm run seed -- --events');
    }
  });
});
