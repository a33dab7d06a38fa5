// Issue 64: webhooks in Chromium. An admin registers an endpoint on the Webhooks page and is shown
// its secret once; a receiver on loopback (allowed by this test's WEBHOOK_ALLOWED_RANGES) answers
// 500 to an order's delivery, and the endpoint's page says so; once it answers 204, Redeliver on
// that page sends the same webhook-id again, signed with the secret the page showed. A private
// address is refused on the form, naming the field. Screenshots: infra/test/artifacts/webhooks-*.png.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { CHROMIUM, chromiumAvailable, launchChromium, screenshot } from '../browser.ts';
import { startFullApp, type FullApp } from '../full-app.ts';
import { pageWithCookies } from './pages.ts';

if (!chromiumAvailable) console.warn(`SKIPPED: the webhooks page test needs Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!chromiumAvailable)('webhooks in Chromium', { timeout: 120_000 }, () => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let status = 500;
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status).end();
    });
  });
  let app: FullApp;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders-hook`;
    app = await startFullApp({ env: { WEBHOOK_ALLOWED_RANGES: '127.0.0.0/8' } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const adminPage = () => pageWithCookies(browser, app.url, app.cookieHeader());

  it('registers an endpoint, shows a failed delivery, and redelivers it from the page', async () => {
    const page = await adminPage();
    await page.goto(`${app.url}/#/webhooks`);
    await page.getByText('No endpoint is registered.').waitFor();

    // A private address is refused, on the URL field.
    await page.getByLabel('URL (https://…)').fill('https://10.0.0.7/hook');
    await page.getByRole('button', { name: 'Register' }).click();
    await page
      .locator('#field-url-error')
      .filter({ hasText: /10\.0\.0\.7 is a private address/ })
      .waitFor();
    await screenshot(page, 'webhooks-refused');

    await page.getByLabel('URL (https://…)').fill(url);
    await page.getByLabel('Description').fill('the order desk');
    await page.getByRole('button', { name: 'Register' }).click();
    const secret = (await page.locator('.notice code').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('link', { name: url }).waitFor();
    await screenshot(page, 'webhooks-registered');

    const product = await app.write('POST', '/products', { name: 'Kettle', price: { amount: 1200, currency: 'EUR' } });
    const order = await app.write('POST', '/orders', {
      userId: app.admin.userId,
      lines: [{ productId: product.body.productId, quantity: 1 }],
    });
    await until(() => received.some((r) => r.body.includes(order.body.orderId)), 'the first attempt');

    await page.getByRole('link', { name: url }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect.poll(() => deliveries.textContent()).toMatch(/order:created[\s\S]*pending[\s\S]*answered 500/);
    await screenshot(page, 'webhooks-failed');

    status = 204;
    await deliveries
      .getByRole('row', { name: /order:created/ })
      .getByRole('button', { name: 'Redeliver' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: /queued again/ })
      .waitFor();
    await until(() => received.filter((r) => r.body.includes(order.body.orderId)).length >= 2, 'the redelivery');
    const [first, again] = received.filter((r) => r.body.includes(order.body.orderId));
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(new Webhook(secret).verify(again!.body, again!.headers as Record<string, string>)).toMatchObject({ type: 'order:created' });
    await page.reload();
    await expect.poll(() => page.getByRole('table', { name: 'Deliveries' }).textContent()).toMatch(/delivered/);
    await screenshot(page, 'webhooks-redelivered');
  });
});
