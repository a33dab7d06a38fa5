import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { steerConnections } from './steering.ts';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A request thread's server that answers every request itself, and records what it would pipe. */
async function steered(firstLineTimeoutMs = 5_000) {
  const piped: string[] = [];
  const server: Server = createServer((req, res) => res.end(`here ${req.method} ${req.url}`));
  steerConnections(server, {
    answersHere: (method, path) => method === 'GET' || path === '/answered-here',
    pipe: (socket: Socket, head: Buffer) => {
      piped.push(head.toString('latin1').split('\r\n', 1)[0]!);
      socket.end('HTTP/1.1 204 Piped\r\nConnection: close\r\n\r\n');
    },
    firstLineTimeoutMs,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { port: (server.address() as AddressInfo).port, piped };
}

/** Sends `chunks` on a new connection, one at a time, and reads until it closes. */
async function exchange(port: number, chunks: string[]): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let read = '';
  socket.on('data', (chunk: Buffer) => (read += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  for (const chunk of chunks) {
    socket.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await closed;
  return read;
}

describe('steering connections by their first request line', () => {
  it('pipes one whose first request is a write it does not answer, even when the line comes in pieces', async () => {
    const { port, piped } = await steered();
    const answer = await exchange(port, ['PO', 'ST /users?x=1 HT', 'TP/1.1\r\nHost: x\r\n\r\n']);
    expect(answer).toContain('204 Piped');
    expect(piped).toEqual(['POST /users?x=1 HTTP/1.1']);
  });

  it('keeps one whose first request is a read, or a write it answers, and serves it here', async () => {
    const { port, piped } = await steered();
    const read = await exchange(port, ['GET /users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    expect(read).toContain('here GET /users');
    const answered = await exchange(port, ['POST /answered-here HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n']);
    expect(answered).toContain('here POST /answered-here');
    expect(piped).toEqual([]);
  });

  it('closes one whose first line does not come in time, and leaves an overlong one to the server to refuse', async () => {
    const { port, piped } = await steered(100);
    expect(await exchange(port, ['POS'])).toBe('');
    const overlong = await exchange(port, [`POST /${'a'.repeat(20 * 1024)}`]);
    expect(overlong).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(piped).toEqual([]);
  });
});
