// The editor in the web app, in Chromium through the front door, with two collab processes behind it: the
// page signs in through the door (the command process), edits over the WebSocket the door
// upgrades, and keeps editing while either collab process is killed — the page reconnects through
// the door to the one still alive, and nothing it typed is lost (docs/operations.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { CHROMIUM, chromiumAvailable, launchChromium, reportAnswers, screenshot } from '../browser.ts';
import { NGINX_MISSING, nginxAvailable, startSplitSite, type SplitSite } from '../front-door.ts';

if (!chromiumAvailable)
  console.warn(`SKIPPED: the editor through the front door needs Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
if (!nginxAvailable) console.warn(NGINX_MISSING);

describe.skipIf(!chromiumAvailable || !nginxAvailable)('the editor through the front door', { timeout: 180_000 }, () => {
  let split: SplitSite;
  let browser: Browser;
  beforeAll(async () => {
    split = await startSplitSite({ collabProcesses: 2 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await split?.stop();
  });

  const textOf = (page: Page) => page.evaluate(() => (document.getElementById('text') as HTMLTextAreaElement).value);
  const pending = (page: Page) => page.evaluate(() => document.querySelector<HTMLElement>('.editor')?.dataset.pending);

  it('keeps every keystroke while either collab process dies', async () => {
    const credentials = { email: 'typist@example.com', password: 'a long passphrase' };
    const typist = jsonClient(split.url);
    expect((await typist.request('POST', '/users', { name: 'Typist', ...credentials })).status).toBe(201);

    expect((await typist.request('POST', '/auth/sign-in', credentials)).status).toBe(200);
    const id = (await typist.request('POST', '/collab/documents', { title: 'Pad' })).body.id as string;

    const context = await browser.newContext();
    expect((await context.request.post(`${split.url}/auth/sign-in`, { data: credentials })).status()).toBe(200);
    const page = await context.newPage();
    reportAnswers(page, split.url);
    page.on('pageerror', (error) => console.error('page error:', error));
    await page.goto(`${split.url}/#/documents/${id}`);
    await page.locator('.editor[data-state="connected"]').waitFor();

    const server = async () => (await typist.request('GET', `/collab/documents/${id}`)).body as { text?: string };
    /** The page has nothing unsent, and the server holds what the page shows. */
    const saved = async (expected: string) =>
      until(
        async () => (await pending(page)) === 'false' && (await textOf(page)) === expected && (await server()).text === expected,
        `“${expected}” saved`,
        60_000,
      );

    let expected = 'Before. ';
    await page.locator('#text').pressSequentially(expected);
    await saved(expected);
    // One process, then the other (the first started again where it was): whichever the page was
    // on, it lost its connection once at least, and typed on through the door.
    for (const index of [0, 1]) {
      await split.collab[index]!.kill();
      const words = `After ${index}. `;
      await page.locator('#text').press('End');
      await page.locator('#text').pressSequentially(words);
      expected += words;
      await saved(expected);
      await split.restartCollab(index);
    }
    await screenshot(page, 'door-editor-survived');
    expect(await textOf(page)).toBe('Before. After 0. After 1. ');
  });
});
