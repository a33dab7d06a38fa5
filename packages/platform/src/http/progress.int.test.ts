// Progress or go, on a real socket: a reader that takes its answer slowly keeps its connection,
// one that stops taking it is reset once the send timeout passes.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import { until } from '@eventide/testing/wait.ts';
import { dropStalledReaders } from './progress.ts';
import { socketOptions } from './socket-options.ts';

const SEND_TIMEOUT_MS = 3000;
/** How often the slow reader takes something: a sixth of the timeout, so that a busy machine's late timers do not cut it. */
const READ_EVERY_MS = 500;
const BODY = Buffer.alloc(1536 * 1024, 'x');
const PIECE = 64 * 1024;

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.setHeader('Content-Length', BODY.length);
    Readable.from(
      (function* () {
        for (let at = 0; at < BODY.length; at += PIECE) yield BODY.subarray(at, at + PIECE);
      })(),
    ).pipe(response);
  });
  dropStalledReaders(server, SEND_TIMEOUT_MS);
  // The kernel would otherwise take the whole answer at once on loopback, and nobody would wait.
  const bound = await socketOptions({ sendBufferBytes: 16 * 1024, sendTimeoutMs: SEND_TIMEOUT_MS }, createLogger({ level: 'silent' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bound(server);
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function ask(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}

describe('progress or go', () => {
  it('keeps a reader that takes the answer slowly, piece by piece, to its end', async () => {
    const socket = await ask();
    let received = 0;
    let ended = false;
    socket.on('end', () => (ended = true));
    // Takes 128 KiB (its whole receive buffer, so that the window opens again at once), then
    // nothing until the next turn, again and again: the answer takes longer than the send timeout
    // to arrive, and it is never cut, for each piece taken is progress.
    const started = performance.now();
    let taken = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      taken += chunk.length;
      if (taken >= 128 * 1024) socket.pause();
    });
    const reading = setInterval(() => {
      taken = 0;
      socket.resume();
    }, READ_EVERY_MS);
    await until(
      () => ended,
      () => `the whole answer (${received} bytes so far)`,
      50_000,
    ).finally(() => clearInterval(reading));
    expect(received).toBeGreaterThan(BODY.length);
    // What makes this test mean something: it took longer than a reader that takes nothing is given.
    expect(performance.now() - started).toBeGreaterThan(SEND_TIMEOUT_MS);
  });

  it('resets a reader that stops taking it, once the send timeout has passed', async () => {
    const socket = await ask();
    await new Promise<void>((resolve) =>
      socket.once('data', () => {
        socket.pause();
        resolve();
      }),
    );
    const open = () => new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    // The server's side is gone; the paused client has not looked at its kernel yet.
    await until(async () => (await open()) === 0, 'the server to let the reader go');
    const why = await new Promise<string>((resolve) => {
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      socket.once('end', () => resolve('end'));
      socket.resume();
    });
    expect(why).toBe('ECONNRESET');
  });
});
