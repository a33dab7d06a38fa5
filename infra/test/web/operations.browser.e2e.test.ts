// Issue 59: the operator's console in Chromium. An admin sees the followers live, an event the next
// release wrote parked with why, that event's stream with personal fields masked; once this release
// has learnt the event's version (played here by giving the running app the next release's
// upcasters), Retry projects it and the console shows nothing parked. A placed order's payment
// deadline is listed until it is paid. A customer is refused.
// Screenshots: infra/test/artifacts/operations-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPCASTERS, type Upcaster, type Upcasters } from '@eventide/kernel/events/versions.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import { versionedEventStore } from '@eventide/stores/event-store/versioned.ts';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { join } from 'node:path';
import { until } from '@eventide/testing/wait.ts';
import { CHROMIUM, chromiumAvailable, launchChromium, reportAnswers, screenshot } from '../browser.ts';
import { startFullApp, type FullApp } from '../full-app.ts';

if (!chromiumAvailable) console.warn(`SKIPPED: the operator's console test needs Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

/** The versions of product:created and product:updated this release writes; the next release knows one more of product:updated. */
const CREATED = UPCASTERS['product:created'].length + 1;
const KNOWN = UPCASTERS['product:updated'].length + 1;
const NEXT: Upcaster = (data) => data;
const NEXT_RELEASE: Upcasters = { ...UPCASTERS, 'product:updated': [...UPCASTERS['product:updated'], NEXT] };

describe.skipIf(!chromiumAvailable)("the operator's console in Chromium", { timeout: 120_000 }, () => {
  /** What the running app knows of product:updated: this release's, until the test teaches it the next version. */
  const known = [...UPCASTERS['product:updated']];
  let app: FullApp;
  let browser: Browser;
  let kettle: string;

  beforeAll(async () => {
    app = await startFullApp({ upcasters: { ...UPCASTERS, 'product:updated': known } });
    browser = await launchChromium();
    kettle = (await app.write('POST', '/products', { name: 'Kettle', price: { amount: 1200, currency: 'EUR' } })).body.productId;
    // The next release changes the kettle: a product:updated of its version, straight into the log.
    const log = openSqliteEventStore({ path: join(app.dataDir, 'events.db'), synchronous: 'NORMAL' });
    const metadata = { correlationId: newId(), causationId: newId(), actor: { type: 'system' as const, name: 'next-release' } };
    await versionedEventStore(log, NEXT_RELEASE).append(
      `product-${kettle}`,
      [{ id: newId(), type: 'product:updated', data: { productId: kettle, changes: { name: 'Steel kettle' } }, metadata }],
      { expectedRevision: 0 },
    );
    await log.close();
    await until(async () => (await app.request('GET', '/admin/parked')).body.items.length === 2, 'the event parked');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function pageAs(cookie: string): Promise<Page> {
    const context = await browser.newContext();
    const origin = new URL(app.url);
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const [name, ...value] = pair.split('=');
        return { name: name!, value: value.join('='), domain: origin.hostname, path: '/' };
      }),
    );
    const page = await context.newPage();
    reportAnswers(page, app.url);
    return page;
  }

  it('shows the followers, the parked event and its stream to an admin, and Retry projects it once the release knows it', async () => {
    const page = await pageAs(app.cookieHeader());
    await page.goto(`${app.url}/#/operations`);
    const followers = page.getByRole('table', { name: 'Followers of the log' });
    /** The Parked column of a follower's row (after Position and Behind). */
    const parkedBy = (follower: string) =>
      followers
        .getByRole('row', { name: new RegExp(follower) })
        .getByRole('cell')
        .nth(2);
    await expect.poll(() => parkedBy('projector').textContent()).toBe('1');
    await page.getByText('Live', { exact: true }).waitFor();
    await page.getByText('Not ready.').waitFor();
    const parked = page.getByRole('table', { name: 'Parked events' });
    await expect
      .poll(() => parked.textContent())
      .toMatch(new RegExp(`product:updated version ${KNOWN + 1} is newer than this release knows \\(${KNOWN}\\)`));
    await screenshot(page, 'operations-parked');

    // The event's stream: its events, in order, with their versions.
    await parked
      .getByRole('link', { name: `product-${kettle}` })
      .first()
      .click();
    const events = page.getByRole('table', { name: `Events of product-${kettle}` });
    await expect.poll(() => events.textContent()).toMatch(new RegExp(`product:created v${CREATED}[\\s\\S]*product:updated v${KNOWN + 1}`));
    await screenshot(page, 'operations-stream');
    await page.getByRole('link', { name: 'Back to operations' }).click();

    // This release learns that version, as an upgrade would bring; the operator retries.
    known.push(NEXT);
    const projectorRow = page.getByRole('table', { name: 'Parked events' }).getByRole('row', { name: /projector/ });
    await projectorRow.getByRole('button', { name: 'Retry' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Asked to retry 1 parked event/ })
      .waitFor();
    await expect.poll(async () => (await app.request('GET', `/products/${kettle}`)).body.name).toBe('Steel kettle');
    // Live: the projector's count goes to 0 without a reload, and its row leaves the parked events.
    await expect.poll(() => parkedBy('projector').textContent()).toBe('0');
    await expect
      .poll(() =>
        page
          .getByRole('table', { name: 'Parked events' })
          .getByRole('row', { name: /projector/ })
          .count(),
      )
      .toBe(0);
    expect(await parkedBy('publisher').textContent()).toBe('1');
    await screenshot(page, 'operations-retried');
  });

  it("shows a placed order's payment deadline, the next due first, and what it decided", async () => {
    const order = await app.write('POST', '/orders', { userId: app.admin.userId, lines: [{ productId: kettle, quantity: 1 }] });
    expect((await app.write('PATCH', `/orders/${order.body.orderId}`, { status: 'placed' })).status).toBe(200);
    const page = await pageAs(app.cookieHeader());
    await page.goto(`${app.url}/#/operations`);
    const deadlines = page.getByRole('table', { name: 'Pending deadlines' });
    const row = deadlines.getByRole('row', { name: new RegExp(order.body.orderId) });
    await expect.poll(() => row.textContent()).toMatch(/reminder/);
    await screenshot(page, 'operations-deadlines');
    await row.getByRole('link', { name: order.body.orderId }).click();
    const events = page.getByRole('table', { name: `Events of payment-deadline-${order.body.orderId}` });
    await expect.poll(() => events.textContent()).toMatch(/payment-deadline:set v1/);
    // Paid: the deadline is cleared, and leaves the console.
    expect((await app.write('PATCH', `/orders/${order.body.orderId}`, { status: 'paid' })).status).toBe(200);
    await page.getByRole('link', { name: 'Back to operations' }).click();
    await page.getByText('No deadline is pending').waitFor();
  });

  it('skips a parked event with a reason, and refuses a customer', async () => {
    const page = await pageAs(app.cookieHeader());
    await page.goto(`${app.url}/#/operations`);
    // The publisher's and the webhooks' copies of the event are still parked (each lot is its own): skip them, saying why.
    for (const follower of ['publisher', 'webhooks']) {
      const row = page.getByRole('table', { name: 'Parked events' }).getByRole('row', { name: new RegExp(follower) });
      await row.getByLabel('Why skip it').fill('published by the next release already');
      await row.getByRole('button', { name: 'Skip' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('table', { name: 'Parked events' })
            .getByRole('row', { name: new RegExp(follower) })
            .count(),
        )
        .toBe(0);
    }
    await expect.poll(async () => (await app.request('GET', '/admin/parked')).body.items).toEqual([]);
    await page.getByText('Nothing is parked').waitFor();
    await screenshot(page, 'operations-clear');

    const customer = await signedInUser(app.url);
    const theirs = await pageAs(customer.cookieHeader());
    await theirs.goto(`${app.url}/#/operations`);
    await theirs.getByText('This page is for administrators.').waitFor();
    expect((await customer.request('GET', '/admin/followers')).status).toBe(403);
  });
});
