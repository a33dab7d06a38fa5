// The shop in Chromium, on a shop `npm run seed` made, on every site (sites.ts): a category browsed,
// the list sorted and narrowed to a price range and paged, a search from the header, a product
// opened with its picture; an admin sets a SKU and uploads a picture, and each bad file is refused
// in words beside the file field. Screenshots go to infra/test/artifacts/ (shop-…).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';
import { MAX_PICTURE_BYTES } from '@eventide/kernel/entities/product-image-bounds.ts';
import { CHROMIUM, chromiumAvailable, launchChromium, screenshot as keep } from '../browser.ts';
import { grantAdmin } from '../process.ts';
import { picture } from '../pictures.ts';
import { pagesOf, pageWithCookies } from './pages.ts';
import { type Site, SITES } from './sites.ts';

if (!chromiumAvailable) console.warn(`SKIPPED: the shop's pages need Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

/** `npm run seed` on a site's stores, as an operator runs it before the first start. */
async function seedShop(env: Record<string, string>): Promise<void> {
  const child = spawnInGroup('npm', ['run', '--silent', 'seed', '--', '--events', '1500'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run seed failed (${code}): ${output}`);
}

/** A card's price as a number of the currency's units (€12.50 → 12.5). */
const amountOf = (text: string) => Number(text.replace(/[^\d.,]/g, '').replace(/,(?=\d{3})/g, ''));

describe.skipIf(!chromiumAvailable).each(SITES)('the shop in Chromium, through $name', { timeout: 180_000 }, ({ start, shots }) => {
  let service: Site;
  let browser: Browser;
  let admin: JsonClient;
  const screenshot = (page: Page, name: string) => keep(page, `${shots}shop-${name}`);
  const { open } = pagesOf(
    () => browser,
    () => service.url,
  );

  beforeAll(async () => {
    service = await start(seedShop);
    admin = jsonClient(service.url);
    const credentials = { email: 'owner@example.com', password: 'a long passphrase' };
    await admin.request('POST', '/users', { name: 'Owner', ...credentials });
    await grantAdmin(service.env, credentials.email);
    await admin.request('POST', '/auth/sign-in', credentials);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** A page signed in as the shop's admin. */
  async function adminPage(path: string): Promise<Page> {
    const page = await pageWithCookies(browser, service.url, admin.cookieHeader());
    await page.goto(`${service.url}${path}`);
    return page;
  }

  it('browses a category, sorts, narrows to a price range and pages it, searches from the header, and opens a product with its picture', async () => {
    const page = await open('/', { width: 1100, height: 700 });
    await page.locator('.card').nth(19).waitFor();
    // The newest products have pictures, loaded.
    const thumb = page.locator('.card img.thumb').first();
    await thumb.waitFor();
    await page.waitForFunction(() => (document.querySelector('.card img.thumb') as HTMLImageElement | null)?.naturalWidth === 320);
    await screenshot(page, 'list');

    // A category, from a card's tag: every card shown is of it.
    const category = (await page.locator('.card .tag').first().textContent())!;
    await page.locator('.card .tag').first().click();
    await page.getByRole('heading', { name: category }).waitFor();
    await page.locator('.card').first().waitFor();
    expect(new Set(await page.locator('.card .tag').allTextContents())).toEqual(new Set([category]));
    await page.getByRole('link', { name: '← All products' }).click();
    await page.getByRole('heading', { name: 'Products' }).waitFor();

    // Cheapest first, between 10 and 50 euros: in order, in range, and the next page too.
    await page.getByLabel('Sort', { exact: true }).selectOption({ label: 'Price: low to high' });
    await page.getByLabel('Price from').fill('10');
    await page.getByLabel('Price to').fill('50');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByRole('button', { name: 'Show' }).click();
    const prices = async () => (await page.locator('.card .price').allTextContents()).map(amountOf);
    await expect.poll(async () => (await prices()).every((p) => p >= 10 && p <= 50), { timeout: 30_000 }).toBe(true);
    await page.locator('.card').nth(19).waitFor();
    await page.locator('.card').last().scrollIntoViewIfNeeded();
    await expect.poll(async () => (await prices()).length, { timeout: 30_000 }).toBeGreaterThan(20);
    const ranged = await prices();
    expect(ranged).toEqual([...ranged].sort((a, b) => a - b));
    expect(ranged.every((p) => p >= 10 && p <= 50)).toBe(true);
    expect((await page.locator('.card .price').allTextContents()).every((text) => text.includes('€'))).toBe(true);
    await screenshot(page, 'price-range');

    // A range the wrong way round: the server's refusal, at its field.
    await page.getByLabel('Price from').fill('60');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#field-maxPrice-error').waitFor();
    expect(await page.locator('#field-maxPrice-error').textContent()).toMatch(/must not be below minPrice/);

    // By name, A to Z, over every currency.
    await page.getByLabel('Price from').fill('');
    await page.getByLabel('Price to').fill('');
    await page.getByLabel('Sort', { exact: true }).selectOption({ label: 'Name: A to Z' });
    await page.getByRole('button', { name: 'Show' }).click();
    const names = async () => (await page.locator('.card strong').allTextContents()).map((n) => n.toLowerCase());
    await expect
      .poll(
        async () => {
          const shown = await names();
          return shown.length >= 20 && shown.join('\n') === [...shown].sort().join('\n');
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    // Search from the header, then a product with its picture.
    const word = (await page.locator('.card strong').first().textContent())!.split(' ').at(-1)!;
    await page.getByLabel('Search products').fill(word);
    await page.getByLabel('Search products').press('Enter');
    await page.getByRole('heading', { name: 'Search' }).waitFor();
    await page.locator('main li a').first().waitFor();
    expect((await page.locator('main li').first().textContent())!.toLowerCase()).toContain(word.toLowerCase());
    await page.goto(`${service.url}/`);
    await page.locator('.card img.thumb').first().waitFor();
    await page.locator('.card a').first().click();
    await page.locator('.gallery img').waitFor();
    await page.waitForFunction(() => ((document.querySelector('.gallery img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
    expect(await page.locator('.gallery img').getAttribute('alt')).toBe(await page.getByRole('heading', { level: 1 }).textContent());
    await screenshot(page, 'product');
  });

  it('lets an admin set a SKU and upload a picture, and refuses each bad file in words', async () => {
    const made = await admin.request('POST', '/products', { name: 'Brass lamp', price: { amount: 8900, currency: 'EUR' } });
    expect(made.status).toBe(201);
    const page = await adminPage(`/#/products/${made.body.productId}`);
    await page.getByRole('heading', { name: 'Brass lamp' }).waitFor();
    await page.getByLabel("SKU (the shop's own code for it; empty: none)").fill('LAMP-01');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    await page.locator('dd', { hasText: 'LAMP-01' }).waitFor();

    const file = page.getByLabel(/^Add a picture \(/);
    const refused = async (name: string, mimeType: string, buffer: Buffer, message: RegExp) => {
      await file.setInputFiles({ name, mimeType, buffer });
      await page.getByRole('button', { name: 'Upload picture' }).click();
      const error = page.locator('#picture-file-error');
      await expect.poll(async () => (await error.isVisible()) && (await error.textContent()), { timeout: 30_000 }).toMatch(message);
    };
    await refused(
      'notes.png',
      'image/png',
      Buffer.from('not a picture at all'),
      /^This file is not a picture: JPEG, PNG and WebP pictures are taken\.$/,
    );
    await refused(
      'photo.png',
      'image/png',
      await picture(200, 150, 'jpeg'),
      /^This file is a JPEG picture, not PNG as its Content-Type \(image\/png\) says\.$/,
    );
    await refused('huge.png', 'image/png', Buffer.alloc(MAX_PICTURE_BYTES + 1), /^This file is larger than 8 MB, the most taken/);
    await screenshot(page, 'upload-refused');

    await file.setInputFiles({ name: 'lamp.png', mimeType: 'image/png', buffer: await picture(1600, 1200, 'png') });
    await page.getByRole('button', { name: 'Upload picture' }).click();
    await page.getByText('Picture added.').waitFor();
    await page.waitForFunction(() => ((document.querySelector('.gallery img') as HTMLImageElement | null)?.naturalWidth ?? 0) === 1280);
    expect(await page.locator('#picture-file-error').count()).toBe(0);
    await screenshot(page, 'upload-done');
    const read = await admin.request('GET', `/products/${made.body.productId}`);
    expect(read.body).toMatchObject({ sku: 'LAMP-01', images: [{ width: 1600, height: 1200 }] });
  });
});
