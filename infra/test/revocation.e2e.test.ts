// Revocation across processes: the command, query and collab services run as processes of their
// own on one data directory, and the admin command line as another. Signing out through one, or
// changing a role through the command line, ends the WebSockets and the event streams held by
// another, at once: the collab process checks sessions periodically only once an hour here, and
// the query process every 15 s, longer than these tests wait.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { ENTRY, grantAdmin, startService, type RunningService } from './process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-revocation-'));
const env = { DATA_DIR: dataDir, COLLAB_CHECK_EVERY_SECONDS: '3600', LOG_LEVEL: 'warn' };
let command: RunningService;
let collab: RunningService;
let query: RunningService;
const clients: RawClient[] = [];

beforeAll(async () => {
  [command, collab, query] = await Promise.all([
    startService(env, ENTRY.command),
    startService(env, ENTRY.collab),
    startService(env, ENTRY.query),
  ]);
});
afterAll(async () => {
  for (const client of clients) client.socket.close();
  await Promise.all([command?.stop(), collab?.stop(), query?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

async function connected(cookie: string): Promise<RawClient> {
  const client = await rawClient(collab.url, cookie);
  clients.push(client);
  return client;
}

const closedWith = async (client: RawClient) => {
  await until(() => client.closed !== undefined, 'the collab process to close the connection');
  return client.closed!.code;
};

describe('revocation across processes', () => {
  it('signing out through the command service closes the connection held by the collab service', async () => {
    const browser = jsonClient(command.url);
    await signUp(browser);
    const client = await connected(browser.cookieHeader());
    expect((await browser.request('POST', '/auth/sign-out')).status).toBe(204);
    expect(await closedWith(client)).toBe(4401);
  });

  it('a role changed by `npm run admin` closes the user’s connections in the running service', async () => {
    const browser = jsonClient(command.url);
    const me = await signUp(browser);
    const client = await connected(browser.cookieHeader());
    await grantAdmin(env, me.email);
    expect(await closedWith(client)).toBe(4401);
  });
});

/** Reads an event stream of the query process to its end: what it sent. */
async function streamUntilEnded(path: string, cookie: string, opened: () => Promise<unknown>): Promise<string> {
  const response = await fetch(query.url + path, { headers: { cookie, accept: 'text/event-stream' } });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  // Once the stream has said it is open, the revocation comes.
  while (!/\n\n/.test(text)) text += decoder.decode((await reader.read()).value, { stream: true });
  await opened();
  for (let read = await reader.read(); !read.done; read = await reader.read()) text += decoder.decode(read.value, { stream: true });
  return text;
}

describe('event streams end with their session, across processes', () => {
  it('signing out through the command service ends the live stream held by the query service, saying why', async () => {
    const browser = jsonClient(command.url);
    await signUp(browser);
    const sent = await streamUntilEnded('/changes', browser.cookieHeader(), () => browser.request('POST', '/auth/sign-out'));
    expect(sent).toContain('event: ended');
    expect(sent).toContain('the session ended');
  });

  it('an admin made a customer again by `npm run admin` stops getting every event', async () => {
    const browser = jsonClient(command.url);
    const me = await signUp(browser);
    await grantAdmin(env, me.email);
    await browser.request('POST', '/auth/sign-in', { email: me.email, password: me.password });
    await streamUntilEnded('/events?after=now', browser.cookieHeader(), () => grantAdmin(env, me.email, 'revoke'));
    expect((await fetch(`${query.url}/events`, { headers: { cookie: browser.cookieHeader() } })).status).toBe(401);
  });
});
