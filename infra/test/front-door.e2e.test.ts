// The split deployment behind its front door (nginx from Debian, configured from the route table:
// infra/front-door/nginx.ts): every operation of the table reaches a process that serves it, the
// door answers what no one process can (405 with every method of a path, a process that is down),
// one client's forged X-Forwarded-For buys it no one else's budget, and a write through the door
// is read through it. The web app and the editor through the same door: web/front-door.browser.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, routerPath } from '@eventide/contract/routes.ts';
import { startFullApp } from './full-app.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { connectEditor, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { rawClient } from '@eventide/testing/collab/raw-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeNginxConfig } from '../front-door/nginx.ts';
import { COMPOSE_CONFIG } from '../front-door/write-config.ts';
import { connect } from 'node:net';
import { signUp } from '@eventide/testing/sign-in.ts';
import { NGINX_MISSING, nginxAvailable, startSplitSite, type SplitSite } from './front-door.ts';

/** Sends `request` as it is written, and answers all the door sent back before it closed. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.once('close', () => resolve(answer));
    socket.once('error', reject);
  });
}

if (!nginxAvailable) console.warn(NGINX_MISSING);

it('runs, in compose, the configuration the route table gives today (npm run front-door writes it)', () => {
  expect(readFileSync(COMPOSE_CONFIG, 'utf8')).toBe(composeNginxConfig());
});

describe.skipIf(!nginxAvailable)('the front door of the split processes', { timeout: 120_000 }, () => {
  let split: SplitSite;
  beforeAll(async () => {
    split = await startSplitSite({ env: { SIGNIN_FAILURES_PER_ACCOUNT: '2' } });
  }, 120_000);
  afterAll(async () => {
    await split?.stop();
  });

  it('sends every operation of the route table, at every version, to a process that serves it', async () => {
    const anonymous = jsonClient(split.url);
    const unserved: string[] = [];
    for (const route of API_ROUTES) {
      const path = route.path.replace(/\{\w+\}/g, 'x');
      const method = route.method.toUpperCase();
      const reply = await anonymous.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      // What the process that serves it says (401, 400, 404 for an entity x…), never "no resource here" or "not this method".
      const notServed = reply.status === 405 || (reply.status === 404 && /no resource at/.test(reply.body?.detail));
      if (notServed) unserved.push(`${route.operationId}: ${method} ${path} → ${reply.status} ${reply.body?.detail}`);
    }
    expect(unserved).toEqual([]);
  });

  it('answers 405 with every method a path has across processes, OPTIONS with them, and 404 for what no process has', async () => {
    const anonymous = jsonClient(split.url);
    // GET /users is the query process's, POST the command process's: only the door knows both.
    const put = await anonymous.request('PUT', '/users', {});
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('HEAD, GET, POST');
    expect(put.headers.get('content-type')).toBe('application/problem+json');
    expect(put.body).toMatchObject({ type: '/problems/method-not-allowed', status: 405, instance: '/users' });
    expect(put.body.correlationId).toBe(put.headers.get('x-correlation-id'));
    // The literal path is not taken for the provider's: GET /auth/sign-in is not a provider named sign-in.
    const getSignIn = await anonymous.request('GET', '/auth/sign-in');
    expect([getSignIn.status, getSignIn.headers.get('allow')]).toEqual([405, 'POST']);
    const options = await anonymous.request('OPTIONS', '/v1/users/abc');
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'HEAD, GET, PUT, DELETE']);
    const missing = await anonymous.request('GET', '/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('no resource at /nowhere');
  });

  it('answers a method a path does not take, and a path with a trailing slash, as npm start’s one process does, on every path of the table', async () => {
    // The same rule on both sides (contract/path-templates.ts): which path a request belongs to, and its Allow.
    const one = await startFullApp();
    try {
      const differ: string[] = [];
      // Every path of the table that process serves (the tests' full app has no collab service).
      const served = new Set(one.routes.map((route) => route.path));
      for (const template of new Set(API_ROUTES.map((route) => route.path).filter((path) => served.has(routerPath(path))))) {
        const path = template.replace(/\{\w+\}/g, 'x');
        for (const method of ['OPTIONS', 'PROPFIND', 'PATCH']) {
          const [door, process] = await Promise.all([jsonClient(split.url).request(method, path), one.anonymous().request(method, path)]);
          const answer = (reply: typeof door) => `${reply.status} ${reply.headers.get('allow')}`;
          // A method the path takes is the process's to answer, as anything else it serves.
          if (door.status < 405 && process.status < 405 && method === 'PATCH') continue;
          if (answer(door) !== answer(process)) differ.push(`${method} ${path}: door ${answer(door)}, process ${answer(process)}`);
        }
        // A trailing slash is another address, which neither side has (the root's is the root).
        if (path === '/') continue;
        const slashed = await Promise.all([jsonClient(split.url).request('GET', `${path}/`), one.anonymous().request('GET', `${path}/`)]);
        if (slashed.some((reply) => reply.status !== 404))
          differ.push(`GET ${path}/: door ${slashed[0].status}, process ${slashed[1].status}`);
      }
      expect(differ).toEqual([]);
    } finally {
      await one.close();
    }
  });

  it('passes the caller’s correlation id on, and makes one for a caller who sent none', async () => {
    const anonymous = jsonClient(split.url);
    const offered = await anonymous.request('GET', '/products', undefined, { 'X-Correlation-Id': 'trace-me.1' });
    expect(offered.headers.get('x-correlation-id')).toBe('trace-me.1');
    const insane = await anonymous.request('GET', '/products', undefined, { 'X-Correlation-Id': 'no spaces "allowed"' });
    expect(insane.headers.get('x-correlation-id')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers a shared file from its own copy: in each client’s encoding, with each request’s correlation id, 304 to a current copy', async () => {
    // fetch decodes what it is sent, and keeps Content-Encoding to say what that was.
    const get = (encoding: string, headers: Record<string, string> = {}) =>
      fetch(`${split.url}/app.js`, { headers: { 'Accept-Encoding': encoding, ...headers } });
    const plain = await get('identity');
    const text = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    // Spellings of one choice share a copy; a coding refused with q=0 is not chosen.
    for (const [accept, chosen] of [
      ['br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5', 'gzip'],
      ['gzip;q=0', null],
    ] as const) {
      const answer = await get(accept, { 'X-Correlation-Id': `copy-${accept.length}` });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers.get('content-encoding'), accept).toBe(chosen);
      expect(answer.headers.get('x-correlation-id'), accept).toBe(`copy-${accept.length}`);
      expect(answer.headers.get('x-accel-expires'), 'the door keeps its instruction to itself').toBeNull();
      expect(await answer.text(), accept).toBe(text);
    }
    const current = await get('br', { 'If-None-Match': plain.headers.get('etag')! });
    expect(current.status).toBe(304);
    // Asked for again and again, the process was asked once per encoding (or once more, past the door's few seconds).
    const log = readFileSync(join(split.door.directory, 'access.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { path: string; cache: string });
    const ofFile = log.filter((entry) => entry.path === '/app.js');
    expect(ofFile.filter((entry) => entry.cache === 'HIT').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps no copy of an answer meant for one person', async () => {
    const owner = jsonClient(split.url);
    const signedUp = await owner.request('POST', '/users', { name: 'Kept', email: 'kept@example.com', password: 'a long passphrase' });
    const path = `/users/${signedUp.body.userId}`;
    const headers = { 'Wait-For-Position': signedUp.headers.get('event-position')! };
    expect((await owner.request('GET', path, undefined, headers)).status).toBe(200);
    expect((await owner.request('GET', path)).status).toBe(200);
    const stranger = await jsonClient(split.url).request('GET', path);
    expect(stranger.status).toBe(401);
    const log = readFileSync(join(split.door.directory, 'access.log'), 'utf8');
    const kept = log.split('\n').filter((line) => line.includes(`"path":"${path}"`) && line.includes('"cache":"HIT"'));
    expect(kept).toEqual([]);
  });

  it('reads through the door what was written through it, with the session the command process opened', async () => {
    const user = jsonClient(split.url);
    const signedUp = await user.request('POST', '/users', { name: 'Door', email: 'door@example.com', password: 'a long passphrase' });
    expect(signedUp.status).toBe(201);
    const position = signedUp.headers.get('event-position')!;
    const read = await user.request('GET', `/users/${signedUp.body.userId}`, undefined, { 'Wait-For-Position': position });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ name: 'Door', email: 'door@example.com' });
    expect((await user.request('GET', '/auth/session')).status).toBe(200);
  });

  it('edits a document over the WebSocket the door upgrades', async () => {
    const user = jsonClient(split.url);
    await user.request('POST', '/users', { name: 'Writer', email: 'writer@example.com', password: 'a long passphrase' });
    const editor = await connectEditor(split.url, user.cookieHeader());
    try {
      const doc = await openText(editor.doc('through-the-door'));
      await submit(doc, [{ insert: 'typed through nginx' }]);
      expect(textOf(doc)).toBe('typed through nginx');
    } finally {
      editor.close();
    }
  });

  it('closes a message over the size limit with 1009 through the door, as the process does', async () => {
    // The process closes first (1009, then its FIN) and reads on what the client is still sending:
    // both of the door's layers must pass that half-close on, or the client is reset before it reads
    // the close frame (1006). A message far over the limit is still being sent when the close comes.
    const user = jsonClient(split.url);
    await signUp(user);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const client = await rawClient(split.url, user.cookieHeader());
      client.send({ a: 'op', c: 'documents', d: `too-big-${i}`, v: 1, seq: 1, op: [{ insert: 'x'.repeat(8 * 1024 * 1024) }] });
      await until(() => client.closed !== undefined, 'the close');
      codes.push(client.closed!.code);
    }
    expect(codes).toEqual([1009, 1009, 1009]);
  });

  it('exports a person’s data from the site process, each service’s part read from the shared stores', async () => {
    const person = jsonClient(split.url);
    const signedUp = await person.request('POST', '/users', { name: 'Leaver', email: 'leaver@example.com', password: 'a long passphrase' });
    const created = await person.request('POST', '/collab/documents', { title: 'Notes' });
    const editor = await connectEditor(split.url, person.cookieHeader());
    try {
      await submit(await openText(editor.doc(created.body.id)), [{ insert: 'mine' }]);
    } finally {
      editor.close();
    }
    const exported = await person.request('GET', `/users/${signedUp.body.userId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.missing).toEqual([]);
    expect(exported.body.signIn).toMatchObject({ password: true });
    expect(exported.body.profileHistory[0]).toMatchObject({ type: 'user:created' });
    expect(exported.body.documents).toEqual([
      expect.objectContaining({ id: created.body.id, title: 'Notes', role: 'owner', text: 'mine' }),
    ]);
  });

  it('counts a client’s failed sign-ins by its own address, whatever X-Forwarded-For it forges', async () => {
    // Two failures per account and address (SIGNIN_FAILURES_PER_ACCOUNT above), then a block: a
    // forged X-Forwarded-For would make each guess come from an address of its own.
    const guesser = jsonClient(split.url);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const guess = { email: 'victim@example.com', password: `guess number ${i}` };
      statuses.push((await guesser.request('POST', '/auth/sign-in', guess, { 'X-Forwarded-For': `203.0.113.${i}` })).status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('answers a forged X-Forwarded-Host with the Host the browser used: another origin stays another', async () => {
    const browser = jsonClient(split.url);
    const me = await signUp(browser);
    const forged = { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' };
    const reply = await browser.request('PATCH', `/users/${me.userId}`, { name: 'Evil' }, forged);
    expect(reply.status).toBe(403);
    expect((await browser.request('GET', `/users/${me.userId}`)).body.name).not.toBe('Evil');
  });

  it('answers what it refuses before any route as a problem: a 10 KB URI, a NUL, CONNECT, its own locations', async () => {
    const port = Number(new URL(split.url).port);
    const cases: Array<[string, number]> = [
      [`GET /${'a'.repeat(10_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 414],
      ['GET /products%00 HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
      ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n', 400],
      ['GET /.door/unavailable HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 404],
    ];
    for (const [request, status] of cases) {
      const answer = await rawExchange(port, request);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head.split('\r\n')[0], request.slice(0, 40)).toContain(` ${status} `);
      expect(head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(JSON.parse(body)).toMatchObject({ status });
    }
  });

  it('answers 503 with Retry-After, as a problem, while the process a path needs is down', async () => {
    await split.query.kill();
    const reply = await jsonClient(split.url).request('GET', '/products');
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('5');
    expect(reply.body).toMatchObject({ type: '/problems/unavailable', status: 503, title: 'Service unavailable', instance: '/products' });
    // The others still answer.
    expect((await jsonClient(split.url).request('GET', '/openapi.json')).status).toBe(200);
  });
});
