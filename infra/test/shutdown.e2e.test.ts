// What SIGTERM does to `npm start`'s process, seen from its clients (packages/platform/src/http/shutdown.ts):
// an idle keep-alive connection is closed at once, while a request still arriving is answered,
// with `Connection: close`; a read waiting for the projector is answered at once (503, retry),
// an event stream ends (the client resumes elsewhere with Last-Event-ID), an editor is told to
// reconnect (1012); then the process exits 0. What is still in flight after SHUTDOWN_DRAIN_MS is cut.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { connectEditor } from '@eventide/testing/collab/editor-client.ts';
import { CLOSE_RESTARTING } from '@eventide/contract/resources/documents/collab-wire.ts';
import { grantAdmin, startService, type RunningService } from './process.ts';

let service: RunningService | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await service?.kill();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<RunningService> {
  dataDir = mkdtempSync(join(tmpdir(), 'eventide-shutdown-'));
  service = await startService({ DATA_DIR: dataDir, ...env });
  return service;
}

const exitOf = (running: RunningService) =>
  new Promise<number | null>((resolve) => {
    if (running.child.exitCode !== null) resolve(running.child.exitCode);
    else running.child.once('exit', (code) => resolve(code));
  });

/** A connection of its own, with what the server sent on it and when the server closed it. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, closed };
}

/**
 * Sends a request's head with `Expect: 100-continue`: the server's 100 Continue says it has read
 * the head and the request is in flight there (so no signal can find it still unread).
 */
async function inFlight(url: string, head: string) {
  const connection = rawConnection(url);
  connection.socket.write(`${head}Host: door\r\nExpect: 100-continue\r\n\r\n`);
  await expect.poll(() => connection.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  return connection;
}

it('closes idle connections at once, answers what is in flight with Connection: close, ends long waits and streams, and exits 0', {
  timeout: 120_000,
}, async () => {
  // A drain long enough that nothing below is cut, however slow the machine.
  const running = await start({ SHUTDOWN_DRAIN_MS: '60000' });
  const admin = jsonClient(running.url);
  const credentials = { email: 'ops@example.com', password: 'a long passphrase' };
  await admin.request('POST', '/users', { name: 'Ops', ...credentials });
  await grantAdmin({ DATA_DIR: dataDir! }, credentials.email);
  expect((await admin.request('POST', '/auth/sign-in', credentials)).status).toBe(200);
  const cookie = admin.cookieHeader();

  // An idle keep-alive connection: one answered request, then nothing.
  const idle = rawConnection(running.url);
  idle.socket.write('GET /health HTTP/1.1\r\nHost: door\r\n\r\n');
  await expect.poll(() => idle.received()).toMatch(/"status":"ok"/);
  // A request still arriving: its headers are in, half its body is not.
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
  const arriving = await inFlight(
    running.url,
    `POST /auth/sign-in HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`,
  );
  arriving.socket.write(body.slice(0, 10));
  // An event stream, open and past its first line.
  const stream = await fetch(`${running.url}/events?after=now`, { headers: { cookie } });
  const events = stream.body!.getReader();
  expect(new TextDecoder().decode((await events.read()).value)).toMatch(/^: connected/);
  // An editor.
  const editor = await connectEditor(running.url, cookie);
  const editorClosed = new Promise<number>((resolve) => editor.socket.once('close', (code) => resolve(code)));
  // A read waiting for a position the projector will not reach.
  const waiting = await inFlight(running.url, 'GET /products HTTP/1.1\r\nWait-For-Position: 999999999\r\nPrefer: wait=10\r\n');

  const exited = exitOf(running);
  running.child.kill('SIGTERM');

  await idle.closed;
  // The idle connection went while the request that is still arriving has not been answered.
  expect(arriving.received()).not.toMatch(/HTTP\/1\.1 [2-5]/);
  await waiting.closed;
  expect(waiting.received()).toMatch(/\r\nHTTP\/1\.1 503 /);
  expect(waiting.received()).toMatch(/\r\nConnection: close\r\n/i);
  expect(waiting.received()).toMatch(/"type":"\/problems\/not-yet-consistent"/);
  expect(await editorClosed).toBe(CLOSE_RESTARTING);
  let ended = false;
  while (!ended) ended = (await events.read()).done;

  arriving.socket.write(body.slice(10));
  await arriving.closed;
  expect(arriving.received()).toMatch(/\r\nHTTP\/1\.1 401 /);
  expect(arriving.received()).toMatch(/\r\nConnection: close\r\n/i);
  expect(await exited).toBe(0);
});

it('cuts a request still in flight after SHUTDOWN_DRAIN_MS, and exits 0 all the same', async () => {
  const running = await start({ SHUTDOWN_DRAIN_MS: '200' });
  // A body that never comes.
  const stuck = await inFlight(running.url, 'POST /auth/sign-in HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n');
  stuck.socket.write('{');
  const exited = exitOf(running);
  running.child.kill('SIGTERM');
  await stuck.closed;
  expect(stuck.received()).not.toMatch(/HTTP\/1\.1 [2-5]/);
  expect(await exited).toBe(0);
});
