// The web app in Chromium, through `npm start`'s process (on the embedded default, and on a
// throwaway PostgreSQL) and through the split processes' front door (nginx), the same journeys on
// each (sites.ts): products (scrolled, opened, searched); orders,
// the shop's payment appearing live; documents shared as editor and viewer, and the editor; phone
// width and keyboard. Screenshots go to infra/test/artifacts/ (`door-` through the door,
// `postgres-` on PostgreSQL).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { CHROMIUM, chromiumAvailable, launchChromium, screenshot as keep } from '../browser.ts';
import { pagesOf } from './pages.ts';
import { grantAdmin } from '../process.ts';
import { type Site, SITES } from './sites.ts';

if (!chromiumAvailable) console.warn(`SKIPPED: the web app tests need Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const PRODUCTS = 25;

describe.skipIf(!chromiumAvailable).each(SITES)('the web app in Chromium, through $name', { timeout: 120_000 }, ({ start, shots }) => {
  let service: Site;
  let browser: Browser;
  const screenshot = (page: Page, name: string) => keep(page, `${shots}${name}`);
  /** The shop's admin, signed in: records payments and makes the catalogue. */
  let admin: JsonClient;

  beforeAll(async () => {
    service = await start();
    // The catalogue, made by an admin through the API.
    admin = jsonClient(service.url);
    const credentials = { email: 'shop@example.com', password: 'a long passphrase' };
    await admin.request('POST', '/users', { name: 'Shop', ...credentials });
    await grantAdmin(service.env, credentials.email);
    await admin.request('POST', '/auth/sign-in', credentials);
    for (let i = 0; i < PRODUCTS; i++) {
      const reply = await admin.request('POST', '/products', {
        name: i === 7 ? 'Electric kettle' : `Teapot no. ${i}`,
        description: i === 7 ? 'Boils a litre of water in three minutes.' : 'A plain teapot.',
        price: { amount: 1999 + i, currency: 'EUR' },
        category: 'Kitchen',
      });
      expect(reply.status).toBe(201);
    }
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  const { open, signUp: signUpInBrowser } = pagesOf(
    () => browser,
    () => service.url,
  );

  it('lists products, loading the next page as the list scrolls, and opens one', async () => {
    // Short enough that the end of the first page is out of view.
    const page = await open('/', { width: 1100, height: 400 });
    await page.locator('.card').nth(19).waitFor();
    expect(await page.locator('.card').count()).toBe(20);
    await page.locator('.card').last().scrollIntoViewIfNeeded();
    await page.getByText(`That is all ${PRODUCTS} products.`).waitFor();
    expect(await page.locator('.card').count()).toBe(PRODUCTS);
    await screenshot(page, 'products');
    await page.getByRole('link', { name: 'Electric kettle' }).click();
    await page.getByRole('heading', { name: 'Electric kettle' }).waitFor();
    expect(await page.locator('.price.big').textContent()).toMatch(/20[.,]06/);
    await screenshot(page, 'product');
  });

  it('browses a category from a product’s tag: its products only, and the way back to all', async () => {
    for (const name of ['Watering can', 'Trowel']) {
      const made = await admin.request('POST', '/products', { name, price: { amount: 1500, currency: 'EUR' }, category: 'Garden' });
      expect(made.status).toBe(201);
      await admin.request('GET', `/products/${made.body.productId}`, undefined, {
        'Wait-For-Position': made.headers.get('event-position')!,
      });
    }
    const page = await open('/');
    await page.locator('.card', { hasText: 'Trowel' }).getByRole('link', { name: 'Garden' }).click();
    await page.getByRole('heading', { name: 'Garden' }).waitFor();
    await page.getByText('That is all 2 products.').waitFor();
    expect(await page.locator('.card strong').allTextContents()).toEqual(['Trowel', 'Watering can']);
    await screenshot(page, 'category');
    // From a product's page too.
    await page.getByRole('link', { name: 'Trowel' }).click();
    await page.locator('dd').getByRole('link', { name: 'Garden' }).click();
    await page.getByRole('heading', { name: 'Garden' }).waitFor();
    await page.getByRole('link', { name: '← All products' }).click();
    await page.getByRole('heading', { name: 'Products' }).waitFor();
  });

  it('searches from the header’s box as the visitor types, on any page, and marks the match', async () => {
    const page = await open('/');
    const box = page.getByRole('search').getByLabel('Search products');
    await box.pressSequentially('ket', { delay: 40 });
    await page.waitForURL(/#\/search$/);
    await page.locator('mark').first().waitFor();
    expect(await page.locator('.card').count()).toBe(1);
    expect(await page.locator('.card mark').first().textContent()).toBe('ket');
    await screenshot(page, 'search');
    await box.fill('zzz');
    await page.getByText('Nothing matches “zzz”.').waitFor();
  });

  it('orders: adds a product, changes the quantity, places and cancels, offers only its own steps, and meets a stale version', async () => {
    const page = await signUpInBrowser('Bob', 'bob@example.com');
    await page.getByRole('link', { name: 'Orders' }).waitFor();
    await page.getByRole('link', { name: 'Electric kettle' }).click();
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add to order' }).click();
    // The order page asks for its products' names after it shows the lines. Here that answer
    // comes while a quantity is being typed (as on a slow network): what was typed must stay.
    let releaseNames!: () => void;
    const namesHeld = new Promise<void>((resolve) => (releaseNames = resolve));
    await page.route(/\/products\/[^/?]+$/, async (route) => {
      await namesHeld;
      await route.continue();
    });
    await page.getByRole('link', { name: 'See the order' }).click();
    await page.getByRole('heading', { name: /Order of/ }).waitFor();
    expect(await page.locator('.steps .current').textContent()).toBe('draft');
    await page.getByLabel('Quantity of line 1').fill('3');
    releaseNames();
    await page.getByRole('cell').getByRole('link', { name: 'Electric kettle' }).waitFor();
    await page.unroute(/\/products\/[^/?]+$/);
    await page.getByLabel('Quantity of line 1').press('Tab');
    await page.getByText('Quantity changed.').waitFor();
    expect(await page.locator('.total').textContent()).toMatch(/60[.,]18/);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.locator('.steps .current', { hasText: 'placed' }).waitFor();
    await screenshot(page, 'order-placed');

    // The customer is offered the customer's steps only: a payment is recorded by the shop.
    expect(await page.locator('.actions button').allTextContents()).toEqual(['Cancel order', 'Reload']);
    expect(await page.locator('.waiting').textContent()).toBe('Next: waiting for the shop to record your payment.');
    await page.locator('.live-badge', { hasText: 'Live' }).waitFor();
    // A second tab of the same customer, whose changes do not come (its stream is blocked), stays as it was loaded.
    const orderId = page.url().split('/orders/')[1]!;
    const stale = await page.context().newPage();
    await stale.route(/\/changes(\?|$)/, (route) => route.abort());
    await stale.goto(page.url());
    await stale.locator('.steps .current', { hasText: 'placed' }).waitFor();
    // The shop records the payment: the live page shows it without a reload; the stale tab's Cancel
    // meets a newer version and says so.
    await page.evaluate(() => Object.assign(window, { loadedOnce: true }));
    expect((await admin.request('PATCH', `/orders/${orderId}`, { status: 'paid' })).status).toBe(200);
    await page.locator('.steps .current', { hasText: 'paid' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    // Its history says it as people do: the shop recorded the payment, the customer changed a quantity.
    await page.locator('.history > ol > li', { hasText: 'the shop: updated' }).filter({ hasText: 'status: placed → paid' }).waitFor();
    await page.locator('.history li li', { hasText: 'Electric kettle: quantity 2 → 3' }).waitFor();
    await page.locator('.history li li', { hasText: 'Electric kettle added, quantity 2' }).waitFor();
    expect(await page.locator('.history').textContent()).not.toMatch(/user [0-9a-f]{8}|\d+ lines? →/);
    await screenshot(page, 'order-paid-live');
    await stale.getByRole('button', { name: 'Cancel order' }).click();
    await stale.getByText('Someone changed this since you opened it').waitFor();
    await stale.close();
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page.locator('.steps .current', { hasText: 'cancelled' }).waitFor();
    await screenshot(page, 'order-cancelled');
    await page.getByRole('link', { name: '← Your orders' }).click();
    await page.locator('td .status-cancelled').waitFor();
    await screenshot(page, 'orders');
  });

  it('documents: creates one, shares it by email and then by name, refusals in words, stops sharing, and edits it on its page', async () => {
    for (const [name, email] of [
      ['Cleo', 'cleo@example.com'],
      ['Dev', 'dev@example.com'],
    ] as const) {
      const client = jsonClient(service.url);
      const signedUp = await client.request('POST', '/users', { name, email, password: 'a long passphrase' });
      expect(signedUp.status).toBe(201);
      // Sharing finds people in the read models: the page may ask only once they are there.
      const seen = await client.request('GET', `/users/${signedUp.body.userId}`, undefined, {
        'Wait-For-Position': signedUp.headers.get('event-position')!,
      });
      expect(seen.status).toBe(200);
    }
    const page = await signUpInBrowser('Eve', 'eve@example.com');
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.getByText('No documents yet.').waitFor();
    await page.getByLabel('Title of a new document').fill('Trip plans');
    await page.getByRole('button', { name: 'Create document' }).click();
    await page.getByRole('heading', { name: 'Trip plans' }).waitFor();

    const shareWith = page.getByLabel('Share with (their email, or the name of someone you already share with)');
    await shareWith.fill('nobody@example.com');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.locator('.field-error', { hasText: 'no account has this email' }).waitFor();
    await shareWith.fill('Dev');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.locator('.field-error', { hasText: 'share by email the first time' }).waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/"type"|problems\//);
    await screenshot(page, 'document-share-refused');
    await shareWith.fill('CLEO@example.com');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('Shared with Cleo: they can edit.').waitFor();
    expect(await page.locator('.linked').textContent()).toMatch(/Cleo\s*\(can edit\)/);
    expect(await page.locator('main').textContent()).not.toContain('cleo@example.com');
    await screenshot(page, 'document');

    // A second document: Cleo is now someone Eve shares with, so her name is enough; a viewer, then an editor, then neither.
    await page.getByRole('link', { name: '← Your documents' }).click();
    await page.getByLabel('Title of a new document').fill('Packing list');
    await page.getByRole('button', { name: 'Create document' }).click();
    await page.getByRole('heading', { name: 'Packing list' }).waitFor();
    await shareWith.fill('cleo');
    await page.getByLabel('They').selectOption('viewer');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('Shared with Cleo: they can view.').waitFor();
    expect(await page.locator('.linked').textContent()).toMatch(/Cleo\s*\(can view\)/);
    await screenshot(page, 'document-viewer');
    await page.getByRole('button', { name: 'Let edit' }).click();
    await page.getByText('Cleo can edit now.').waitFor();
    await page.getByRole('button', { name: 'Stop sharing with Cleo' }).click();
    await page.getByText('Cleo can no longer open it.').waitFor();
    expect(await page.locator('.linked').textContent()).not.toContain('Cleo');

    // The editor is on the page: what is typed there is the document's text, at phone width too.
    const documentPath = page.url().split('#')[1]!;
    const id = documentPath.split('/documents/')[1]!;
    await page.locator('.editor[data-state="connected"]').waitFor();
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the document page fits a phone').toBeLessThanOrEqual(0);
    expect(await page.locator('#text').evaluate((box) => box.getBoundingClientRect().width)).toBeGreaterThan(300);
    await screenshot(page, 'editor-phone');
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.getByLabel('Document text').pressSequentially('Socks, boots');
    const saved = async () => (await (await page.request.get(`${service.url}/collab/documents/${id}`)).json()).text;
    await until(async () => (await saved()) === 'Socks, boots', 'the typed text to be saved');
    await page.getByRole('link', { name: '← Your documents' }).click();
    await page.getByRole('link', { name: 'Packing list' }).click();
    await until(async () => (await page.locator('#text').inputValue()) === 'Socks, boots', 'the text in the editor again');
    // The editor's old address leads here.
    await page.goto(`${service.url}/collab/editor?doc=${id}`);
    await page.getByRole('heading', { name: 'Packing list' }).waitFor();
    expect(page.url()).toBe(`${service.url}/#/documents/${id}`);
    await page.getByRole('link', { name: '← Your documents' }).click();
    await page.getByRole('cell', { name: 'Trip plans' }).waitFor();
    await screenshot(page, 'documents');
  });

  it('admin: creates, edits and deletes a product, and lists users', async () => {
    const page = await open('/#/sign-in');
    await page.getByLabel('Email').fill('shop@example.com');
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('cell', { name: 'shop@example.com' }).waitFor();
    await page.getByLabel('Name').fill('Teapot deluxe');
    await page.getByLabel('Price').fill('12.50');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { name: 'Teapot deluxe' }).waitFor();
    expect(await page.locator('.price.big').textContent()).toMatch(/12[.,]50/);
    await page.getByLabel('Price').fill('13');
    await page.getByLabel('Tax rate included, in % (empty: not stated)').fill('5.5');
    await page.getByLabel("SKU (the shop's own code for it; empty: none)").fill('TP-DLX-01');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect(await page.locator('.price.big').textContent()).toMatch(/13[.,]00 incl\. 5\.5 % tax/);
    await page.locator('dd', { hasText: 'TP-DLX-01' }).waitFor();
    // The history under it says who changed what, newest first.
    await page.locator('.history li li', { hasText: 'price: €12.50 → €13.00' }).waitFor();
    expect(await page.locator('.history > ol > li').first().textContent()).toMatch(/you: updated.*taxRate: — → 5.5/s);
    await screenshot(page, 'admin-product-history');
    await page.getByLabel('Tax rate included, in % (empty: not stated)').fill('5.555');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.field-error').waitFor();
    expect(await page.locator('.field-error').textContent()).toMatch(/at most two decimals/);
    await page.getByLabel('Tax rate included, in % (empty: not stated)').fill('5.5');
    await page.getByLabel('Currency (ISO 4217, such as EUR)').fill('XYZ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.field-error').waitFor();
    expect(await page.locator('.field-error').textContent()).toMatch(/ISO 4217/);
    await screenshot(page, 'admin-product-refused');
    await page.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('heading', { name: 'Products' }).waitFor();
  });

  it("admin: takes the shop's steps of a customer's order, from the orders waiting for the shop", async () => {
    const customer = jsonClient(service.url);
    const signedUp = await customer.request('POST', '/users', { name: 'Cara', email: 'cara@example.com', password: 'a long passphrase' });
    const products = await customer.request('GET', '/api/products?limit=1');
    const order = await customer.request('POST', '/orders', {
      userId: signedUp.body.userId,
      lines: [{ productId: products.body.items[0].productId, quantity: 1 }],
    });
    expect((await customer.request('PATCH', `/orders/${order.body.orderId}`, { status: 'placed' })).status).toBe(200);
    // The admin page reads the read models: wait until the order is there.
    await customer.request('GET', `/orders/${order.body.orderId}`, undefined, {
      'Wait-For-Position': order.headers.get('event-position')!,
    });

    const page = await open('/#/sign-in');
    await page.getByLabel('Email').fill('shop@example.com');
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Orders waiting for the shop' }).waitFor();
    await page.locator('td .status-placed').first().waitFor();
    await screenshot(page, 'admin-orders');
    await page.goto(`${service.url}/#/orders/${order.body.orderId}`);
    // The payment behind the step: how it was paid and its reference, the total as its amount.
    await page.getByLabel('Paid by').selectOption({ label: 'Bank transfer' });
    await page.getByLabel(/^Reference/).fill('TX-4711');
    await screenshot(page, 'admin-record-payment');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.locator('.steps .current', { hasText: 'paid' }).waitFor();
    expect(await page.locator('.payment').textContent()).toMatch(/^Paid €[\d.,]+ by bank transfer, reference TX-4711\.$/);
    // And its history says so, in words.
    await page.getByText(/payment: — → €[\d.,]+ by bank transfer, reference TX-4711/).waitFor();
    await page.getByRole('button', { name: 'Mark shipped' }).click();
    await page.locator('.steps .current', { hasText: 'shipped' }).waitFor();
    // Shipped: it can no longer be cancelled, by anyone.
    expect(await page.locator('.actions button').allTextContents()).toEqual(['Mark delivered', 'Reload']);
    await page.getByRole('button', { name: 'Mark delivered' }).click();
    await page.locator('.steps .current', { hasText: 'delivered' }).waitFor();
    await screenshot(page, 'admin-order-delivered');
  });

  it('works at phone width and from the keyboard', async () => {
    const page = await open('/', { width: 375, height: 740 });
    await page.locator('.card').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    // The header on one row: no link wraps alone onto a second.
    await page.getByRole('link', { name: 'Sign up' }).waitFor();
    const rows = await page
      .locator('header nav a')
      .evaluateAll((links) => new Set(links.map((link) => Math.round(link.getBoundingClientRect().top))).size);
    expect(rows, 'rows of the header').toBe(1);
    // A tab shows the site's icon, and nothing the page asks for is refused.
    expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    await screenshot(page, 'products-phone');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });
});
