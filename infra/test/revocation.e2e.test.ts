// Revocation across processes: the command service and the collab service run as processes of
// their own on one data directory, and the admin command line as a third. Signing out through
// one, or changing a role through the command line, ends the WebSockets held by another, at once:
// the collab process checks sessions periodically only once an hour here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '@eventide/collab-service/src/testing/raw-client.ts';
import { signUp } from '@eventide/command-service/src/testing/sign-in.ts';
import { jsonClient } from '@eventide/platform/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { ENTRY, grantAdmin, startService, type RunningService } from './process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-revocation-'));
const env = { DATA_DIR: dataDir, COLLAB_CHECK_EVERY_SECONDS: '3600', LOG_LEVEL: 'warn' };
let command: RunningService;
let collab: RunningService;
const clients: RawClient[] = [];

beforeAll(async () => {
  [command, collab] = await Promise.all([startService(env, ENTRY.command), startService(env, ENTRY.collab)]);
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.socket.close();
  await Promise.all([command?.stop(), collab?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

async function connected(cookie: string): Promise<RawClient> {
  const client = await rawClient(collab.url, cookie);
  clients.push(client);
  return client;
}

const closedWith = async (client: RawClient) => {
  await until(() => client.closed !== undefined, 'the collab process to close the connection', 20_000);
  return client.closed!.code;
};

describe('revocation across processes', { timeout: 60_000 }, () => {
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
