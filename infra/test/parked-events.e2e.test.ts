// Issue 59: an event of a version this release does not know (a newer release wrote it, as in a
// rolling upgrade) parks alone. Other entities go on projecting; a read of that entity as of then,
// and a write to it, are refused with a 503 that says why; readiness says what is parked; the
// console lists it and retries it; and once the release that knows it starts, it is projected and
// readiness comes back. Customers see none of the console.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPCASTERS, type Upcasters } from '@eventide/kernel/events/versions.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openEventStoreAdapter } from '@eventide/stores/event-store/open.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import { versionedEventStore } from '@eventide/stores/event-store/versioned.ts';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { until } from '@eventide/testing/wait.ts';
import { startFullApp, type FullApp } from './full-app.ts';

/** The version of product:updated this release knows; the next one knows one more, which adds nothing this one would miss. */
const KNOWN = UPCASTERS['product:updated'].length + 1;
const NEXT_RELEASE: Upcasters = { ...UPCASTERS, 'product:updated': [...UPCASTERS['product:updated'], (data) => data] };
const dir = mkdtempSync(join(tmpdir(), 'eventide-parked-'));
const apps: FullApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const product = (name: string) => ({ name, price: { amount: 1200, currency: 'EUR' } });

/** What the next release writes when it changes a product: a product:updated of its version, straight into the log. */
async function changeAsNextRelease(app: FullApp, productId: string, revision: number, name: string): Promise<number> {
  const { store: log } = await openEventStoreAdapter(loadConfig(app.storeEnv));
  try {
    const next = versionedEventStore(log, NEXT_RELEASE);
    const metadata = { correlationId: newId(), causationId: newId(), actor: { type: 'system' as const, name: 'next-release' } };
    const event = { id: newId(), type: 'product:updated', data: { productId, changes: { name } }, metadata };
    return (await next.append(`product-${productId}`, [event], { expectedRevision: revision })).position;
  } finally {
    await log.close();
  }
}

describe('an event of a version this release does not know', () => {
  it('parks alone, is refused with a reason, shows on the console and in readiness, and is projected by the release that knows it', async () => {
    const app = await startFullApp({ dir });
    apps.push(app);
    const kettle = (await app.write('POST', '/products', product('Kettle'))).body.productId as string;
    const toaster = (await app.write('POST', '/products', product('Toaster'))).body.productId as string;
    const newer = await changeAsNextRelease(app, kettle, 0, 'Kettle, renamed by the next release');

    // Every other entity goes on.
    const changed = await app.write('PATCH', `/products/${toaster}`, { name: 'Toaster 2' });
    const toasterRead = await app.request('GET', `/products/${toaster}`, undefined, { 'Wait-For-Position': String(changed.position) });
    expect(toasterRead.body).toMatchObject({ name: 'Toaster 2' });

    // The kettle, as of the event this release cannot read, and a change to it: refused, saying why.
    const asOf = await app.request('GET', `/products/${kettle}?at=${newer}`);
    expect(asOf.status).toBe(503);
    expect(asOf.headers.get('retry-after')).toBe('30');
    expect(asOf.body).toMatchObject({
      type: '/problems/event-version-unknown',
      detail: expect.stringMatching(
        new RegExp(`product:updated event of version ${KNOWN + 1}, newer than this release reads \\(${KNOWN}\\)`),
      ),
    });
    expect((await app.request('PATCH', `/products/${kettle}`, { name: 'Kettle 2' })).status).toBe(503);
    // Its read model stays as it was before the event.
    expect((await app.request('GET', `/products/${kettle}`)).body).toMatchObject({ name: 'Kettle', version: 0 });

    // Readiness says what is parked; the console lists it for each follower that parked it.
    await until(async () => (await app.request('GET', '/health/ready')).status === 503, 'readiness to fail');
    const ready = await app.request('GET', '/health/ready');
    expect(ready.body.checks.followers).toMatchObject({
      status: 'fail',
      output: expect.stringMatching(
        new RegExp(
          `the projector parked 1 event, the first product:updated at position \\d+, because product:updated version ${KNOWN + 1} is newer`,
        ),
      ),
    });
    const parked = (await app.request('GET', '/admin/parked')).body.items as Array<{ follower: string; position: number }>;
    expect(parked.map((p) => [p.follower, p.position])).toEqual([
      ['projector', newer],
      ['publisher', newer],
      ['webhooks', newer],
    ]);
    const followers = (await app.request('GET', '/admin/followers')).body;
    expect(followers.followers.find((f: { name: string }) => f.name === 'projector')).toMatchObject({ parked: 1, held: 0, behind: 0 });

    // A retry by this release fails again, and says so.
    expect((await app.request('POST', '/admin/parked/retry', {})).body).toEqual({ requested: 3 });
    await until(
      async () => ((await app.request('GET', '/admin/parked?follower=projector')).body.items[0]?.attempts ?? 0) >= 2,
      'the retry to have been tried',
    );

    // Customers see none of it.
    const customer = await signedInUser(app.url);
    expect((await customer.request('GET', '/admin/parked')).status).toBe(403);
    expect((await customer.request('POST', '/admin/parked/retry', {})).status).toBe(403);

    // The release that knows that version starts on the same stores: what was parked is projected.
    await app.close();
    const upgraded = await startFullApp({ dir, upcasters: NEXT_RELEASE });
    apps.push(upgraded);
    await until(
      async () => (await upgraded.request('GET', `/products/${kettle}`)).body?.name === 'Kettle, renamed by the next release',
      'the parked event projected by the next release',
    );
    await until(async () => (await upgraded.request('GET', '/health/ready')).status === 200, 'readiness back');
    expect((await upgraded.request('GET', '/admin/parked')).body.items).toEqual([]);
  }, 120_000);
});
