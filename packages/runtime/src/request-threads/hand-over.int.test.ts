import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { until } from '@eventide/testing/wait.ts';
import { forwardedAddressOf } from '@eventide/platform/http/forwarded.ts';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { handOverTo, newDoor, openDoor } from './hand-over.ts';
import { steerConnections } from './steering.ts';

const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The writing thread's side: an app that says what it was handed. */
async function writingThread(door = newDoor()) {
  const seen: IncomingMessage[] = [];
  const app = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    seen.push(req);
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ address: forwardedAddressOf(req), headers: req.headers, raw: req.rawHeaders }));
  };
  const opened = await openDoor(door, app, createServer());
  closing.push(opened.close);
  return { door, seen };
}

/** A request thread's public server, handing every request over. */
async function requestThread(door: ReturnType<typeof newDoor>): Promise<string> {
  const handOver = handOverTo(door, capturedLog().log);
  const server: Server = createServer(handOver.request);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise<void>((resolve) => server.close(() => resolve())), handOver.close);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function get(url: string, options: { socketPath?: string; headers?: Record<string, string>; method?: string; agent?: Agent | false } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { agent: false, ...options }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe("the door between a process's threads", () => {
  it('hands a request over with the peer the request thread saw, and nothing of a header a client forged', async () => {
    const { door } = await writingThread();
    const url = await requestThread(door);
    const answer = await get(`${url}/products`, {
      headers: { 'eventide-client-address': '203.0.113.66', 'eventide-thread-token': 'guessed', 'x-kept': 'yes' },
    });
    const seen = JSON.parse(answer.body) as { address: string; headers: Record<string, string>; raw: string[] };
    expect(seen.address).toBe('127.0.0.1');
    expect(seen.headers['x-kept']).toBe('yes');
    // Neither the client's forgeries nor the process's own token reach the app, in either form.
    const everything = JSON.stringify(seen.headers) + JSON.stringify(seen.raw);
    expect(everything).not.toContain('203.0.113.66');
    expect(everything).not.toContain('guessed');
    expect(everything).not.toContain(door.token);
    expect(everything.toLowerCase()).not.toContain('eventide-');
  });

  it('refuses a connection to the door that does not carry the token, and passes nothing on', async () => {
    const { door, seen } = await writingThread();
    const forged = await get('http://door/products', {
      socketPath: door.path,
      headers: { 'eventide-thread-token': 'x'.repeat(door.token.length), 'eventide-client-address': '203.0.113.66' },
    });
    expect(forged.status).toBe(403);
    const bare = await get('http://door/products', { socketPath: door.path });
    expect(bare.status).toBe(403);
    expect(seen).toEqual([]);
  });

  it('answers 503 with a problem when the writing thread is not there to take it', async () => {
    const url = await requestThread(newDoor());
    const answer = await get(`${url}/users?email=secret@example.com`);
    expect(answer.status).toBe(503);
    const problem = JSON.parse(answer.body) as { type: string; instance: string };
    expect(problem.type).toBe('/problems/busy');
    expect(problem.instance).toBe('/users');
  });

  it("passes a writer's connection on whole: the writing thread serves it, its later reads too, as from its client", async () => {
    const door = newDoor();
    // The writing thread's own server, which a piped connection reaches as if it had accepted it.
    const served: Array<{ method: string; url: string; address: string | undefined; handedOver: boolean }> = [];
    const own = createServer((req, res) => {
      served.push({
        method: req.method!,
        url: req.url!,
        address: req.socket.remoteAddress,
        handedOver: forwardedAddressOf(req) !== undefined,
      });
      res.end('writer');
    });
    const opened = await openDoor(door, (req, res) => res.end(`handed over from ${forwardedAddressOf(req)}`), own);
    closing.push(opened.close);
    // A request thread that answers GET /here itself.
    const handOver = handOverTo(door, capturedLog().log);
    const answersHere = (method: string, path: string) => method === 'GET' && path === '/here';
    const thread: Server = createServer((req, res) => (answersHere(req.method!, req.url!) ? res.end('here') : handOver.request(req, res)));
    steerConnections(thread, { answersHere, pipe: handOver.pipe, firstLineTimeoutMs: 5_000 });
    await new Promise<void>((resolve) => thread.listen(0, '127.0.0.1', resolve));
    closing.push(() => new Promise<void>((resolve) => thread.close(() => resolve())), handOver.close);
    const url = `http://127.0.0.1:${(thread.address() as AddressInfo).port}`;
    const oneConnection = () => new Agent({ keepAlive: true, maxSockets: 1 });

    // A connection that writes first is the writing thread's, whole: its read after too.
    const writer = oneConnection();
    expect((await get(`${url}/users`, { method: 'POST', agent: writer })).body).toBe('writer');
    expect((await get(`${url}/here`, { agent: writer })).body).toBe('writer');
    writer.destroy();
    expect(served).toEqual([
      { method: 'POST', url: '/users', address: '127.0.0.1', handedOver: false },
      { method: 'GET', url: '/here', address: '127.0.0.1', handedOver: false },
    ]);
    // One that reads first stays here, and hands its writes over one at a time.
    const reader = oneConnection();
    expect((await get(`${url}/here`, { agent: reader })).body).toBe('here');
    expect((await get(`${url}/users`, { method: 'POST', agent: reader })).body).toBe('handed over from 127.0.0.1');
    reader.destroy();
    expect(served).toHaveLength(2);
  });

  it("passes an upgraded connection's half-close on: the client reads the last words while it still sends", async () => {
    // What a WebSocket server does on a message over its size limit: its close frame, its FIN, and
    // it reads on (and drops) what the client was still sending. The client must read that close
    // frame, not a reset; the server must be sent every byte up to the client's own end.
    const door = newDoor();
    const own = createServer();
    let received = 0;
    let serverSawEnd = false;
    own.on('upgrade', (_req: IncomingMessage, socket: Socket, head: Buffer) => {
      received = head.length;
      socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\nlast words');
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.once('end', () => (serverSawEnd = true));
    });
    const opened = await openDoor(door, (_req, res) => res.end(), own);
    closing.push(opened.close);
    const handOver = handOverTo(door, capturedLog().log);
    const thread: Server = createServer();
    thread.on('upgrade', handOver.upgrade);
    await new Promise<void>((resolve) => thread.listen(0, '127.0.0.1', resolve));
    closing.push(() => new Promise<void>((resolve) => thread.close(() => resolve())), handOver.close);

    const client = connect((thread.address() as AddressInfo).port, '127.0.0.1');
    const sent = 8 * 1024 * 1024;
    let read = '';
    let failure: Error | undefined;
    client.on('data', (chunk: Buffer) => (read += chunk.toString('latin1')));
    client.once('error', (error) => (failure = error));
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.write('GET /collab HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
    // Far more than the kernel's buffers hold, so that most of it is still to send when the server ends.
    client.end(Buffer.alloc(sent, 'x'));
    await closed;
    expect(failure?.message).toBeUndefined();
    expect(read).toMatch(/last words$/);
    await until(() => serverSawEnd, "the server to read to the client's end");
    expect(received).toBe(sent);
  });

  it('ends a connection left half open: the writing thread ended, the client never does', async () => {
    const door = newDoor();
    const own = createServer();
    const served: Socket[] = [];
    own.on('upgrade', (_req: IncomingMessage, socket: Socket) => {
      served.push(socket);
      socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
    });
    const opened = await openDoor(door, (_req, res) => res.end(), own);
    closing.push(opened.close);
    const handOver = handOverTo(door, capturedLog().log, 200);
    const thread: Server = createServer();
    thread.on('upgrade', handOver.upgrade);
    await new Promise<void>((resolve) => thread.listen(0, '127.0.0.1', resolve));
    closing.push(() => new Promise<void>((resolve) => thread.close(() => resolve())), handOver.close);

    // A client that reads the server's end and keeps its own side open, sending nothing more.
    const client = connect({ port: (thread.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    let ended = false;
    let closed = false;
    client.once('end', () => (ended = true));
    client.once('close', () => (closed = true));
    client.on('data', () => undefined);
    client.write('GET /collab HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
    await until(() => ended, "the server's end to reach the client");
    // The request thread ends both once the bound has passed: the writing thread's connection closes,
    // and the client's next bytes are refused by the kernel.
    const [writingSide] = served;
    await until(() => writingSide?.destroyed === true, "the writing thread's connection to close", 10_000);
    client.on('error', () => undefined);
    await until(() => closed || !client.write('still here?'), "the client's connection to be refused", 10_000);
    client.destroy();
  });

  it('ends a connection to the door that claims to be piped without the token, and serves nothing of it', async () => {
    const door = newDoor();
    const served: string[] = [];
    const own = createServer((req, res) => {
      served.push(req.url!);
      res.end();
    });
    const opened = await openDoor(door, (_req, res) => res.end(), own);
    closing.push(opened.close);
    for (const preamble of [`EVENTIDE-PIPE ${'x'.repeat(door.token.length)} 203.0.113.66`, `EVENTIDE-PIPE ${door.token} not-an-address`]) {
      const socket = connect({ path: door.path });
      socket.write(`${preamble}\r\nGET /forged HTTP/1.1\r\nHost: x\r\n\r\n`);
      const answer = await new Promise<string>((resolve) => {
        let read = '';
        socket.on('data', (chunk: Buffer) => (read += chunk));
        socket.once('close', () => resolve(read));
      });
      expect(answer).toBe('');
    }
    expect(served).toEqual([]);
  });
});
