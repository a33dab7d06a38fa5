// The account's journeys in Chromium, on every site (sites.ts): sign-up after a refusal, the
// profile, a change made elsewhere, sign-out; what each account form says when it is refused or
// done; the person's data downloaded, and the account deleted. Screenshots go to
// infra/test/artifacts/ (`door-` through the door, `postgres-` on PostgreSQL).
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { CHROMIUM, chromiumAvailable, launchChromium, screenshot as keep } from '../browser.ts';
import { pagesOf } from './pages.ts';
import { type Site, SITES } from './sites.ts';

if (!chromiumAvailable) console.warn(`SKIPPED: the account pages need Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!chromiumAvailable).each(SITES)(
  'the account pages in Chromium, through $name',
  { timeout: 120_000 },
  ({ start, shots }) => {
    let service: Site;
    let browser: Browser;
    const screenshot = (page: Page, name: string) => keep(page, `${shots}${name}`);
    const { open, signUp: signUpInBrowser } = pagesOf(
      () => browser,
      () => service.url,
    );

    beforeAll(async () => {
      service = await start();
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await service?.stop();
    });

    it('signs up after a refusal shown in words, edits the profile, meets a change made elsewhere, and signs out', async () => {
      const page = await open('/#/sign-up');
      await page.getByLabel('Name').fill('Ann');
      await page.getByLabel('Email').fill('ann@example.com');
      await page.getByLabel('Password (at least 8 characters)').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.locator('.field-error').waitFor();
      expect(await page.locator('.field-error').textContent()).toMatch(/at least 8 characters/);
      expect(await page.locator('body').textContent()).not.toMatch(/"type"|problems\//);
      await screenshot(page, 'sign-up-refused');
      await page.getByLabel('Password (at least 8 characters)').fill('a long passphrase');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('link', { name: 'Ann' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      await page.getByLabel('Name').fill('Ann Smith');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByRole('link', { name: 'Ann Smith' }).waitFor();
      await screenshot(page, 'account');

      // The same account changed in another browser: saving the stale form is refused in words.
      const elsewhere = jsonClient(service.url);
      await elsewhere.request('POST', '/auth/sign-in', { email: 'ann@example.com', password: 'a long passphrase' });
      const session = (await elsewhere.request('GET', '/auth/session')).body;
      await elsewhere.request('PATCH', `/users/${session.userId}`, { name: 'Ann S.' });
      await page.getByLabel('Name').fill('Ann Q.');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Someone changed this since you opened it').waitFor();
      await screenshot(page, 'account-stale');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
    });

    it('says how each account form went: a wrong password, a wrong current password, a saved profile, a changed password', async () => {
      const signIn = await open('/#/sign-in');
      await signIn.getByLabel('Email').fill('nobody@example.com');
      await signIn.getByLabel('Password').fill('not the passphrase');
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      const refusal = signIn.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toBe('The email or the password is wrong.');
      await screenshot(signIn, 'sign-in-refused');

      const page = await signUpInBrowser('Fay', 'fay@example.com');
      await page.getByRole('link', { name: 'Fay' }).click();
      await page.getByLabel('Name').fill('Fay Jones');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.getByRole('link', { name: 'Fay Jones' }).waitFor();

      await page.getByLabel('Current password').fill('not the passphrase');
      await page.getByLabel('New password').fill('another long passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.locator('#field-currentPassword-error').waitFor();
      expect(await page.locator('#field-currentPassword-error').textContent()).toBe('is not the current password');
      // Said once, beside its field: the form's own line only points there.
      expect(await page.locator('form[aria-labelledby="password-title"] [role="alert"]').textContent()).toBe(
        'Please check the marked fields.',
      );
      expect(await page.locator('main').textContent()).not.toMatch(/currentPassword/i);
      await screenshot(page, 'account-password-refused');
      await page.setViewportSize({ width: 375, height: 740 });
      await screenshot(page, 'account-password-refused-phone');
      await page.setViewportSize({ width: 1100, height: 800 });

      // The right one: this session goes on, every other one of hers ends.
      await page.getByLabel('Current password').fill('a long passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
      expect(await page.getByLabel('New password').inputValue()).toBe('');
      await page.getByRole('link', { name: 'Fay Jones' }).waitFor();
    });

    it('downloads the person’s data, then deletes the account, which forgets them', async () => {
      const page = await signUpInBrowser('Dora Leaving', 'dora@example.com');
      await page.getByRole('link', { name: 'Dora Leaving' }).click();
      await page.getByRole('heading', { name: 'Your data' }).waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download your data' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^personal-data-[0-9a-f-]+\.json$/);
      const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
      expect(exported.profileHistory[0].data).toMatchObject({ name: 'Dora Leaving', email: 'dora@example.com' });
      expect(exported.signIn.password).toBe(true);

      const remove = page.getByRole('button', { name: 'Delete my account' });
      expect(await remove.isDisabled()).toBe(true);
      await page.getByLabel('I understand that this cannot be undone').check();
      await screenshot(page, 'account-delete');
      await remove.click();
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      const again = jsonClient(service.url);
      expect((await again.request('POST', '/auth/sign-in', { email: 'dora@example.com', password: 'a long passphrase' })).status).toBe(401);
    });
  },
);
