// The session of a request outside Koa (a WebSocket upgrade) is the one the HTTP routes see.
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { createHttpApp } from '../http/app.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { jsonClient, listenOnLoopback } from '@eventide/testing/json-client.ts';
import { testRoutes } from '@eventide/testing/test-routes.ts';
import { openAuth, type OpenedAuth } from './open.ts';
import { signIn, signOut, userOfUpgrade } from './session.ts';

let dir: string;
let auth: OpenedAuth;
let url: string;
let close: () => Promise<void>;
let now = Date.now();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-upgrade-'));
  auth = await openAuth(loadConfig({ DATA_DIR: dir }), { clock: () => now });
  const table = testRoutes({
    in: {
      method: 'post',
      path: '/in',
      handle: async (ctx) => {
        await signIn(ctx, { id: '00000000-0000-4000-8000-000000000001', roles: [] });
        ctx.status = 204;
      },
    },
    out: {
      method: 'post',
      path: '/out',
      handle: (ctx) => {
        signOut(ctx);
        ctx.status = 204;
      },
    },
  });
  const app = createHttpApp({ log: createLogger({ level: 'silent' }), ...table, bodyLimit: 1024, auth });
  const served = await listenOnLoopback(app);
  url = served.url;
  close = async () => {
    served.server.closeAllConnections();
    await new Promise((resolve) => served.server.close(resolve));
  };
});
afterAll(async () => {
  await close();
  await auth.close();
  rmSync(dir, { recursive: true, force: true });
});

const upgradeWith = (cookie: string) => ({ headers: { cookie }, socket: {}, connection: {} }) as unknown as IncomingMessage;

describe('userOfUpgrade', () => {
  it('finds the signed-in user from the cookie, and nobody once signed out, forged or timed out', async () => {
    const browser = jsonClient(url, { peer: true });
    await browser.request('POST', '/in');
    const cookie = browser.cookieHeader();
    expect(await userOfUpgrade(upgradeWith(cookie), auth.sessions)).toEqual({ id: '00000000-0000-4000-8000-000000000001', roles: [] });
    expect(await userOfUpgrade(upgradeWith(cookie.replace(/eventide\.sid=[^;]+/, 'eventide.sid=forged')), auth.sessions)).toBeUndefined();
    expect(await userOfUpgrade(upgradeWith(''), auth.sessions)).toBeUndefined();

    now += 31 * 60_000;
    expect(await userOfUpgrade(upgradeWith(cookie), auth.sessions)).toBeUndefined();
    now -= 31 * 60_000;
    await browser.request('POST', '/out');
    expect(await userOfUpgrade(upgradeWith(cookie), auth.sessions)).toBeUndefined();
  });
});
