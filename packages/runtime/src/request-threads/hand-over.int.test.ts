import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardedAddressOf } from '@eventide/platform/http/forwarded.ts';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { handOverTo, newDoor, openDoor } from './hand-over.ts';

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

function get(url: string, options: { socketPath?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { ...options, agent: false }, (res) => {
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
});
