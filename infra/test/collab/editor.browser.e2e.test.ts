// The editor in the web app, in a real browser (Debian's Chromium, driven by playwright-core), as
// three people use it: an owner, an editor and a viewer of one document. They type together and
// converge, see each other's names and colours, the viewer cannot type (and a forged op from the
// viewer's socket is refused, the socket still usable), each undoes only their own edit, a version
// is named, kept through the history's trims, compared and restored, and the restore arrives in
// everyone's editor; someone away shows as idle. Then a page that was away longer than the history kept comes back to the
// document as it is, told so, with what it typed meanwhile handed back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { call, connectEditor, openText, textOf } from '@eventide/testing/collab/editor-client.ts';
import { CHROMIUM, chromiumAvailable as available, launchChromium, reportAnswers, screenshot } from '../browser.ts';
import { startFullApp, type FullApp } from '../full-app.ts';

if (!available)
  console.warn(`SKIPPED: the editor browser tests need Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

/** A short history, so that trims happen within the test: a named version must outlive them. */
const HISTORY_OPS = 20;

interface Person {
  name: string;
  email: string;
  userId: string;
  http: JsonClient;
}

describe.skipIf(!available)('the editor in the web app, in Chromium', { timeout: 180_000 }, () => {
  let app: FullApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startFullApp({
      collab: true,
      env: { COLLAB_HISTORY_OPS: String(HISTORY_OPS), COLLAB_SNAPSHOT_EVERY_OPS: '5', COLLAB_SNAPSHOT_EVERY_SECONDS: '3600' },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** An account with a password, signed in over HTTP, once the read models know its name. */
  async function person(name: string): Promise<Person> {
    const email = `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const http = jsonClient(app.url);
    const made = await http.request('POST', '/users', { name, email, password: 'a long passphrase' });
    expect(made.status).toBe(201);
    const seen = await http.request('GET', `/users/${made.body.userId}`, undefined, {
      'Wait-For-Position': made.headers.get('event-position')!,
    });
    expect(seen.status).toBe(200);
    expect((await http.request('POST', '/auth/sign-in', { email, password: 'a long passphrase' })).status).toBe(200);
    return { name, email, userId: made.body.userId, http };
  }

  /** The person's browser, signed in, on the document's page, once its editor is connected. */
  async function openDocument(
    who: Person,
    id: string,
    viewport = { width: 1200, height: 850 },
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({ viewport });
    const signIn = await context.request.post(`${app.url}/auth/sign-in`, { data: { email: who.email, password: 'a long passphrase' } });
    expect(signIn.status()).toBe(200);
    const page = await context.newPage();
    reportAnswers(page, app.url);
    page.on('pageerror', (error) => console.error(`page error (${who.name}):`, error));
    await page.goto(`${app.url}/#/documents/${id}`);
    await page.locator('.editor[data-state="connected"]').waitFor();
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('.editor')?.dataset.version) > 0);
    return { page, context };
  }

  const state = (page: Page) =>
    page.evaluate(() => {
      const editor = document.querySelector<HTMLElement>('.editor')!;
      return {
        text: document.querySelector<HTMLTextAreaElement>('#text')!.value,
        pending: editor.dataset.pending,
        version: Number(editor.dataset.version),
      };
    });
  const server = async (by: Person, id: string) =>
    (await by.http.request('GET', `/collab/documents/${id}`)).body as { version: number; text: string };
  /** Every page shows the server's text, at its version, with nothing left to send. */
  const converged = (pages: Page[], by: Person, id: string, what: string) =>
    until(async () => {
      const now = await server(by, id);
      const seen = await Promise.all(pages.map(state));
      return seen.every((s) => s.pending === 'false' && s.text === now.text && s.version === now.version);
    }, what);

  it('lets an owner, an editor and a viewer work on one document, each as their part allows', async () => {
    const [owner, editor, viewer] = await Promise.all([person('Olive'), person('Edda'), person('Vic')]);
    const created = await owner.http.request('POST', '/collab/documents', { title: 'Shared notes' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (const [who, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      expect((await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: who.email, role })).status).toBe(200);
    }
    const [o, e, v] = await Promise.all([openDocument(owner, id), openDocument(editor, id), openDocument(viewer, id)]);
    const pages = [o.page, e.page, v.page];

    // Typing together: the owner at the end, the editor at the start, at once.
    await o.page.locator('#text').pressSequentially('Middle. ');
    await converged(pages, owner, id, 'the owner’s first words everywhere');
    await e.page.locator('#text').click();
    await e.page.keyboard.press('Control+Home');
    await o.page.keyboard.press('Control+End');
    await Promise.all([
      o.page.locator('#text').pressSequentially('Olive ends', { delay: 5 }),
      e.page.locator('#text').pressSequentially('Edda starts. ', { delay: 5 }),
    ]);
    await converged(pages, owner, id, 'the words typed at once everywhere');
    // Olive's full stop after all of Edda's words: the last edit her page saw is her own, and the
    // others' carets below must be drawn on the text as she made it.
    await o.page.locator('#text').press('.');
    await converged(pages, owner, id, 'all three pages to converge on the server’s text');
    expect((await server(owner, id)).text).toBe('Edda starts. Middle. Olive ends.');

    // Names and colours: each page labels the others' carets by name, and lists who is here.
    const caret = (page: Page, user: string) =>
      page.evaluate((u) => {
        const mark = document.querySelector<HTMLElement>(`#cursors .remote-cursor[data-user="${u}"]`);
        return mark ? { label: mark.dataset.label, colour: mark.style.getPropertyValue('--colour') } : undefined;
      }, user);
    const listed = (page: Page, user: string) =>
      page.evaluate((u) => {
        const item = document.querySelector<HTMLElement>(`.here-now li[data-user="${u}"]`);
        return item ? { text: item.textContent, colour: item.style.getPropertyValue('--colour') } : undefined;
      }, user);
    await until(async () => (await caret(o.page, editor.userId))?.label === 'Edda', 'Edda’s named caret on Olive’s page');
    await until(async () => (await caret(e.page, owner.userId))?.label === 'Olive', 'Olive’s named caret on Edda’s page');
    await until(async () => (await listed(o.page, viewer.userId))?.text?.includes('Vic') === true, 'Vic among who is here');
    const eddaOnOlive = (await caret(o.page, editor.userId))!;
    expect((await listed(v.page, editor.userId))?.colour, 'one colour for Edda on every page').toBe(eddaOnOlive.colour);
    expect((await listed(o.page, editor.userId))?.text).toMatch(/Edda\s*active/);
    await screenshot(o.page, 'editor-three-people');
    // Three people, three colours: each of a document's people has their own.
    const colours = await Promise.all([owner, editor, viewer].map(async (who) => (await listed(e.page, who.userId))?.colour));
    expect(new Set(colours).size, `colours ${colours.join(', ')}`).toBe(3);
    // Two carets at the end (a click below the text puts one there): the later name label goes below the line, not over the other.
    const end = String((await server(owner, id)).text.length);
    await v.page.locator('#text').click();
    await e.page.locator('#text').click();
    await e.page.keyboard.press('Control+End');
    const stacks = () =>
      o.page.evaluate(
        (at) =>
          [...document.querySelectorAll<HTMLElement>('#cursors .remote-cursor')]
            .filter((mark) => mark.dataset.index === at)
            .map((mark) => getComputedStyle(mark, '::after').top),
        end,
      );
    let seen: string[] = [];
    await until(
      async () => {
        seen = await o.page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('#cursors .remote-cursor')].map(
            (m) => `${m.dataset.label}@${m.dataset.index}/${m.dataset.stack}:${getComputedStyle(m, '::after').top}`,
          ),
        );
        return new Set(await stacks()).size === 2;
      },
      () => `two labels at the end, one above the line and one below (${seen.join(' ')})`,
    );
    await screenshot(o.page, 'editor-labels-stacked');
    // The versions beside the editor say where it is now, as it moves.
    const editorVersion = () => o.page.locator('.editor').getAttribute('data-version');
    await until(
      async () => (await o.page.locator('.versions .now').textContent()) === (await editorVersion()),
      '"now" at the editor’s version',
    );

    // The viewer: the page offers no typing, and the server refuses an op forged on their socket.
    expect(await v.page.locator('#text').getAttribute('readonly')).not.toBeNull();
    await v.page.getByText('You can read this document').waitFor();
    await v.page.locator('#text').press('X');
    expect((await state(v.page)).text).toBe('Edda starts. Middle. Olive ends.');
    const cookieOf = async (context: BrowserContext) => (await context.cookies(app.url)).map((c) => `${c.name}=${c.value}`).join('; ');
    const forger = await connectEditor(app.url, await cookieOf(v.context));
    try {
      const doc = await openText(forger.doc(id));
      const refused = await call((done) => doc.submitOp([{ insert: 'forged ' }], {}, done)).then(
        () => undefined,
        (error: { code?: string }) => error.code,
      );
      expect(refused).toBe('ERR_READ_ONLY');
      // The socket is still usable: a fresh fetch answers, without the forged words.
      await call((done) => doc.fetch(done));
      expect(textOf(doc)).not.toContain('forged');
    } finally {
      forger.close();
    }
    expect((await server(owner, id)).text).not.toContain('forged');

    // Undo is one's own: Edda takes back her words, Olive's stay.
    const undoAll = async (page: Page) => {
      while (await page.locator('#undo').isEnabled()) await page.locator('#text').press('Control+z');
    };
    await undoAll(e.page);
    await converged(pages, owner, id, 'Edda’s undo everywhere');
    expect((await server(owner, id)).text).toBe('Middle. Olive ends.');

    // A named version, then more text, and ops enough (another tab's, typing and deleting) for the
    // history to be trimmed past it.
    await o.page.getByLabel('Name this version').fill('First draft');
    await o.page.getByRole('button', { name: 'Save version' }).click();
    await o.page.getByText(/Saved version \d+ as “First draft”/).waitFor();
    const named = (await server(owner, id)).version;
    await o.page.locator('#text').press('Control+End');
    await o.page.locator('#text').pressSequentially(' Then more.');
    await converged(pages, owner, id, 'the later text everywhere');
    const tab = await connectEditor(app.url, owner.http.cookieHeader());
    try {
      const doc = await openText(tab.doc(id));
      for (let n = 0; n < HISTORY_OPS * 2; n++) {
        const end = textOf(doc).length;
        await call((done) => doc.submitOp(n % 2 ? [{ retain: end - 1 }, { delete: 1 }] : [{ retain: end }, { insert: '!' }], {}, done));
      }
    } finally {
      tab.close();
    }
    await converged(pages, owner, id, 'the other tab’s ops everywhere');
    await app.collab!.history.idle();
    const timeline = (await owner.http.request('GET', `/collab/documents/${id}/versions`)).body;
    expect(timeline.oldest, 'the history was trimmed past the named version').toBeGreaterThan(named);
    expect(timeline.named).toMatchObject([{ version: named, name: 'First draft', by: { userId: owner.userId, name: 'Olive' } }]);

    // Compare it with now, and restore it: it arrives in the others' editors.
    await o.page.getByRole('button', { name: 'Refresh' }).click();
    await o.page.getByRole('button', { name: 'First draft' }).click();
    await o.page.locator('#version-text', { hasText: 'Middle. Olive ends.' }).waitFor();
    await o.page.getByLabel('Compare with').selectOption('now');
    await o.page.locator('#comparison ins', { hasText: 'Then more.' }).waitFor();
    await screenshot(o.page, 'editor-compare');
    await o.page.getByRole('button', { name: 'Restore this version' }).click();
    await converged(pages, owner, id, 'the restored version everywhere');
    expect((await server(owner, id)).text).toBe('Middle. Olive ends.');
    // A restore is an edit of the owner's own: Undo takes it back.
    await o.page.locator('#undo').click();
    await converged(pages, owner, id, 'the restore undone everywhere');
    expect((await server(owner, id)).text).toBe('Middle. Olive ends. Then more.');

    // Idle: Vic leaves his tab and keeps an editor open elsewhere that says he is away.
    const cookieOfVic = await cookieOf(v.context);
    await v.context.close();
    await until(async () => (await listed(o.page, viewer.userId)) === undefined, 'Vic gone from who is here');
    const away = await connectEditor(app.url, cookieOfVic);
    try {
      // Presence moves with the text: ShareDB sends it only for a document it has.
      await openText(away.doc(id));
      const presence = away.connection.getDocPresence('documents', id);
      await call((done) => presence.subscribe(done));
      await call((done) => presence.create().submit({ index: 0, length: 0, idle: true }, done));
      await until(async () => /Vic\s*idle/.test((await listed(o.page, viewer.userId))?.text ?? ''), 'Vic idle on Olive’s page');
    } finally {
      away.close();
    }
  });

  it('brings a page that was away longer than the history kept back to the document as it is, and says so', async () => {
    const [owner] = await Promise.all([person('Ann')]);
    const created = await owner.http.request('POST', '/collab/documents', { title: 'Away' });
    const id = created.body.id as string;
    // The page's socket goes through a proxy the test can cut: the network, as far as the page knows.
    const context = await browser.newContext();
    await context.request.post(`${app.url}/auth/sign-in`, { data: { email: owner.email, password: 'a long passphrase' } });
    const page = await context.newPage();
    reportAnswers(page, app.url);
    page.on('console', (m) => console.log('PAGE', m.text()));
    let online = true;
    let current: WebSocketRoute | undefined;
    await page.routeWebSocket(/\/collab$/, (socket) => {
      current = socket;
      // Offline: the socket opens, and nothing reaches the server.
      if (online) socket.connectToServer();
    });
    await page.goto(`${app.url}/#/documents/${id}`);
    await page.locator('.editor[data-state="connected"]').waitFor();
    await page.locator('#text').pressSequentially('Before. ');
    await converged([page], owner, id, 'the first words saved');

    online = false;
    await current!.close({ code: 1001, reason: 'the network went away' });
    await page.locator('.editor[data-state="offline"], .editor[data-state="connecting"]').first().waitFor();
    await page.locator('#text').press('End');
    await page.locator('#text').pressSequentially('Typed while away.');
    // Meanwhile someone else writes far more than the history keeps.
    const other = await connectEditor(app.url, owner.http.cookieHeader());
    const doc = await openText(other.doc(id));
    for (let n = 0; n < HISTORY_OPS * 3; n++) await call((done) => doc.submitOp([{ insert: 'y' }], {}, done));
    other.close();
    await app.collab!.history.idle();
    const now = await server(owner, id);

    online = true;
    await current!.close({ code: 1001, reason: 'the network is back' });
    await page.getByText('You were away longer than this document keeps its history').waitFor();
    expect(await page.getByLabel('What you typed while away').inputValue()).toBe('Before. Typed while away.');
    await until(async () => (await state(page)).text === now.text, 'the page to show the document as it is');
    await screenshot(page, 'editor-back-after-window');
  });
  it('starts a document at an id nobody has used, as its owner, and refuses someone else’s', async () => {
    const [ann, bob] = await Promise.all([person('Ann'), person('Bob')]);
    const open = async (who: Person, id: string) => {
      const context = await browser.newContext();
      await context.request.post(`${app.url}/auth/sign-in`, { data: { email: who.email, password: 'a long passphrase' } });
      const page = await context.newPage();
      reportAnswers(page, app.url);
      await page.goto(`${app.url}/#/documents/${id}`);
      return page;
    };
    const id = `meeting-notes-${Math.random().toString(36).slice(2, 8)}`;
    const page = await open(ann, id);
    await page.getByRole('heading', { name: `No document “${id}” for you` }).waitFor();
    await page.getByRole('button', { name: 'Start it, as its owner' }).click();
    await page.locator('.editor[data-state="connected"]').waitFor();
    expect((await ann.http.request('GET', `/collab/documents/${id}/access`)).body).toMatchObject({ owner: ann.userId });
    // Bob is not shared with: he is told so, and starting it is refused.
    const refused = await open(bob, id);
    await refused.getByRole('button', { name: 'Start it, as its owner' }).click();
    await refused.getByText('It cannot be started: someone else has started it and has not shared it with you').waitFor();
    await screenshot(refused, 'editor-start-refused');
    expect((await ann.http.request('GET', `/collab/documents/${id}/access`)).body.editors).toEqual([]);
  });
});
