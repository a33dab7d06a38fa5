// What the HTTP parser refuses before any middleware runs is answered as problem+json too.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from './client-errors.ts';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer({ maxHeaderSize: 1024 }, (_request, response) => response.end('ok'));
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends bytes as they are and reads the whole answer, up to the server closing. */
function raw(request: string): Promise<{ status: number; headers: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) });
    });
  });
}

describe('requests the parser refuses', () => {
  it('answers a malformed request line with a 400 problem', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers).toMatch(/Content-Type: application\/problem\+json/);
    expect(answer.headers).toMatch(/Connection: close/);
    expect(answer.body).toEqual({
      type: '/problems/http',
      status: 400,
      title: 'Bad request',
      detail: 'the request is not well-formed HTTP/1.1',
    });
  });

  it('answers headers past the limit with a 431 problem', async () => {
    const answer = await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toMatchObject({ status: 431, title: 'Request header fields too large' });
  });
});
