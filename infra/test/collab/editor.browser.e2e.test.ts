// The editor page in a real browser (Debian's Chromium, driven by playwright-core): two people
// sign in through the page's form, type into one document at the same time, converge on the
// server's text, and each sees the other's cursor where the other's caret is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, chromiumAvailable as available, launchChromium, reportAnswers } from '../browser.ts';
import { until } from '@eventide/testing/wait.ts';
import { startCollabApp, type CollabApp, type User } from './harness.ts';

if (!available)
  console.warn(`SKIPPED: the editor browser test needs Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

describe.skipIf(!available)('the editor page in Chromium', () => {
  let app: CollabApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startCollabApp();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function openEditor(user: User, doc: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    reportAnswers(page, app.url);
    page.on('pageerror', (error) => console.error(`page error (${user.email}):`, error));
    await page.goto(`${app.url}/collab/editor?doc=${doc}`);
    await page.locator('#sign-in input[name=email]').fill(user.email);
    await page.locator('#sign-in input[name=password]').fill(user.password);
    await page.locator('#sign-in button').click();
    await page.locator('#text').waitFor({ state: 'visible' });
    // Version 1 or more: the document exists on the server (the first page to open it creates it).
    await page.waitForFunction(() => Number(document.body.dataset.version) > 0);
    return page;
  }

  const state = (page: Page) =>
    page.evaluate(() => {
      const text = document.getElementById('text') as HTMLTextAreaElement;
      return {
        text: text.value,
        caret: text.selectionStart,
        pending: document.body.dataset.pending,
        version: document.body.dataset.version,
      };
    });

  it('two people typing at once converge and see each other’s cursor', async () => {
    const alice = await app.newUser();
    const bob = await app.newUser();
    const alicePage = await openEditor(alice, 'pad');
    expect((await alice.http.request('PUT', `/collab/documents/pad/editors/${bob.userId}`)).status).toBe(200);
    const bobPage = await openEditor(bob, 'pad');

    await alicePage.locator('#text').pressSequentially('Middle. ');
    await until(async () => (await state(bobPage)).text === 'Middle. ', 'Alice’s first words on Bob’s page');

    // At once: Alice at the end, Bob at the start.
    await bobPage.locator('#text').click();
    await bobPage.keyboard.press('Control+Home');
    await alicePage.keyboard.press('Control+End');
    await Promise.all([
      alicePage.locator('#text').pressSequentially('Alice types at the end.', { delay: 5 }),
      bobPage.locator('#text').pressSequentially('Bob was here. ', { delay: 5 }),
    ]);

    const server = async () => (await alice.http.request('GET', '/collab/documents/pad')).body as { version: number; text: string };
    await until(async () => {
      const [a, b, s] = await Promise.all([state(alicePage), state(bobPage), server()]);
      return (
        a.pending === 'false' &&
        b.pending === 'false' &&
        a.text === s.text &&
        b.text === s.text &&
        a.version === String(s.version) &&
        b.version === String(s.version)
      );
    }, 'both pages to converge on the server’s text');
    expect((await server()).text).toBe('Bob was here. Middle. Alice types at the end.');

    // Each page draws the other's caret where the other's caret is.
    const cursorOf = (page: Page, userId: string) =>
      page.evaluate((id) => document.querySelector<HTMLElement>(`#cursors .remote-cursor[data-user="${id}"]`)?.dataset.index, userId);
    await until(
      async () => (await cursorOf(alicePage, bob.userId)) === String((await state(bobPage)).caret),
      'Bob’s cursor on Alice’s page',
    );
    await until(
      async () => (await cursorOf(bobPage, alice.userId)) === String((await state(alicePage)).caret),
      'Alice’s cursor on Bob’s page',
    );
    await alicePage.screenshot({ path: process.env.EDITOR_SCREENSHOT ?? `${app.dir}/alice.png` });

    // Bob closes his tab: his cursor leaves Alice's page.
    await bobPage.close();
    await until(async () => (await cursorOf(alicePage, bob.userId)) === undefined, 'Bob’s cursor to leave Alice’s page');
  }, 120_000);

  it('undoes only one’s own typing, where it is now, and leaves the other person’s', async () => {
    const alice = await app.newUser();
    const bob = await app.newUser();
    const alicePage = await openEditor(alice, 'undo-pad');
    expect((await alice.http.request('PUT', `/collab/documents/undo-pad/editors/${bob.userId}`)).status).toBe(200);
    const bobPage = await openEditor(bob, 'undo-pad');
    await alicePage.locator('#text').pressSequentially('Alice wrote this.');
    await until(async () => (await state(bobPage)).text === 'Alice wrote this.', 'Alice’s text on Bob’s page');
    // Bob types at the start, after Alice's step: her undo must take back hers, not his.
    await bobPage.locator('#text').click();
    await bobPage.keyboard.press('Control+Home');
    await bobPage.locator('#text').pressSequentially('Bob: ');
    await until(async () => (await state(alicePage)).text === 'Bob: Alice wrote this.', 'Bob’s text on Alice’s page');
    // Keystrokes typed within a second are one step; under load her typing may be a few: she
    // undoes until there is nothing of hers left to undo, and Bob's words must still be there.
    const stepAll = async (page: Page, key: string, button: string) => {
      while (await page.locator(button).isEnabled()) await page.locator('#text').press(key);
    };
    await stepAll(alicePage, 'Control+z', '#undo');
    for (const page of [alicePage, bobPage])
      await until(async () => (await state(page)).text === 'Bob: ', 'Alice’s words gone, Bob’s kept');
    await stepAll(alicePage, 'Control+Shift+z', '#redo');
    for (const page of [alicePage, bobPage])
      await until(async () => (await state(page)).text === 'Bob: Alice wrote this.', 'Alice’s words back');
    // Bob's own undo takes back his.
    await stepAll(bobPage, 'Control+z', '#undo');
    for (const page of [alicePage, bobPage]) await until(async () => (await state(page)).text === 'Alice wrote this.', 'Bob’s words gone');
  }, 120_000);
});
