// Done-when: the socket dies after the server commits an op and before its ack arrives; after
// reconnecting, ShareDB resends the op and it is applied once. A proxy between client and
// server cuts both sides the moment it sees the ack, so the client never gets it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { until } from '@eventide/testing/wait.ts';
import { startCollabApp, type CollabApp } from './harness.ts';
import { converged, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import ShareDB from 'sharedb/lib/client/index.js';
import { COLLAB_PATH } from '@eventide/contract/resources/documents/collab-wire.ts';

let app: CollabApp;
let proxy: Server;
let proxyUrl: string;
/** When set, the next ack from the server is swallowed and both sockets are cut. */
let dropNextAck = false;
let acksDropped = 0;

beforeAll(async () => {
  app = await startCollabApp();
  proxy = createServer();
  const wss = new WebSocketServer({ server: proxy });
  wss.on('connection', (client, request) => {
    const upstream = new WebSocket(`${app.url.replace('http', 'ws')}${COLLAB_PATH}`, { headers: { cookie: request.headers.cookie ?? '' } });
    const queued: string[] = [];
    upstream.on('open', () => {
      for (const m of queued.splice(0)) upstream.send(m);
    });
    client.on('message', (data) =>
      upstream.readyState === WebSocket.OPEN ? upstream.send(data.toString()) : queued.push(data.toString()),
    );
    upstream.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const isAck = message.a === 'op' && message.seq !== undefined && !('op' in message) && !message.create && !message.del;
      if (dropNextAck && isAck) {
        dropNextAck = false;
        acksDropped++;
        upstream.terminate();
        client.terminate();
        return;
      }
      client.send(data.toString());
    });
    upstream.on('close', () => client.terminate());
    client.on('close', () => upstream.terminate());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `ws://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await app.close();
});

it('applies an op once when the connection dies between commit and ack', async () => {
  const user = await app.newUser();
  const socket = new WebSocket(proxyUrl, { headers: { cookie: user.http.cookieHeader() } });
  const connection = new ShareDB.Connection(socket as never);
  const doc = await openText(connection.get('documents', 'reconnect'));
  await submit(doc, [{ insert: 'before ' }]);
  const server = async () => (await user.http.request('GET', '/collab/documents/reconnect')).body as { version: number; text: string };
  const versionBefore = (await server()).version;

  dropNextAck = true;
  let acked = false;
  doc.submitOp([{ retain: 7 }, { insert: 'ONCE' }], {}, (error) => {
    if (!error) acked = true;
  });
  await until(() => acksDropped === 1 && connection.state !== 'connected', 'the ack to be dropped and the socket cut');
  // The server has the op; the client does not know it yet.
  expect(await server()).toMatchObject({ version: versionBefore + 1, text: 'before ONCE' });
  expect(acked).toBe(false);
  expect(doc.hasWritePending()).toBe(true);

  // Reconnect: ShareDB resends the op under its old id, and the server recognises it.
  (connection as unknown as { bindToSocket(socket: WebSocket): void }).bindToSocket(
    new WebSocket(proxyUrl, { headers: { cookie: user.http.cookieHeader() } }),
  );
  await converged([doc], async () => (await server()).version);
  expect(acked).toBe(true);
  expect(textOf(doc)).toBe('before ONCE');
  expect(await server()).toMatchObject({ version: versionBefore + 1, text: 'before ONCE' });
  connection.close();
});
