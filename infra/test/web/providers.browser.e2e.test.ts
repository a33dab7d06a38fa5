// Signing in with an identity provider from the web app, in Chromium: the sign-in page offers
// each configured provider; the browser goes to a real OpenID provider (oidc-provider on
// 127.0.0.1), signs in and consents there, and comes back to the app signed in; the account
// page shows the provider linked; unlinking it is refused while it is the only way in, and
// works once a password is set.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable, launchChromium, reportAnswers, screenshot } from '../browser.ts';
import { startFullApp, type FullApp } from '../full-app.ts';
import { startTestProvider, type TestProvider } from '../oidc-provider.ts';

if (!chromiumAvailable) console.warn(`SKIPPED: the provider sign-in browser test needs Chromium at ${CHROMIUM}`);

describe.skipIf(!chromiumAvailable)('provider sign-in from the web app', { timeout: 120_000 }, () => {
  let provider: TestProvider;
  let app: FullApp;
  let browser: Browser;
  beforeAll(async () => {
    provider = await startTestProvider();
    app = await startFullApp({ env: { AUTH_PROVIDERS: provider.config('acme') } });
    provider.serve(`${app.url}/auth/callback`);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await provider?.close();
  });

  it('signs in through the provider and back, and shows it linked', async () => {
    provider.accounts.set('sub-web', { email: 'web-person@example.test', emailVerified: true, name: 'Web Person' });
    const page = await (await browser.newContext()).newPage();
    reportAnswers(page, app.url);
    await page.goto(`${app.url}/#/sign-in`);
    await page.getByRole('link', { name: 'Sign in with acme' }).click();
    // At the provider: its development login and consent forms.
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name=login]').fill('sub-web');
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').click();
    await page.locator('button[type=submit]').click();
    await page.waitForURL((url) => url.href.startsWith(app.url));
    await page.getByRole('link', { name: 'Web Person' }).click();
    await page.getByRole('listitem').filter({ hasText: 'acme' }).waitFor();
    await screenshot(page, 'account-provider');
    // The only way into this account: unlinking it is refused, in words.
    await page.getByRole('button', { name: 'Unlink' }).click();
    await page.locator('.problem').waitFor();
    expect(await page.locator('.problem').textContent()).not.toMatch(/problems\//);
    await screenshot(page, 'account-unlink-refused');
    // With a password set (no current one to give), the provider can go.
    expect(await page.getByLabel('Current password').count()).toBe(0);
    await page.getByLabel('New password').fill('a long passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await page.getByRole('button', { name: 'Unlink' }).click();
    await page.getByText('No provider is linked.').waitFor();
    // And linked again from here: through the provider (which remembers this browser's sign-in
    // there, so it sends it straight back) to this page.
    await page.getByRole('button', { name: 'Link acme' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${app.url}/#/account`));
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'acme' }).waitFor();
  });
});
