// A delivery to a name is checked on what the name resolves to where the connection is made: a
// name that resolves to loopback is refused without a request reaching the receiver, unless the
// operator allows loopback.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from './send.ts';

let requests = 0;
const server = createServer((_request, response) => {
  requests++;
  response.writeHead(204).end();
});
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const delivery = (allowed: string[]) =>
  send({
    url: `http://localhost:${port}/hook`,
    messageId: 'msg_1',
    body: '{}',
    secrets: [{ secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` }],
    now: Date.now(),
    policy: { allowed },
    timeoutMs: 5_000,
  });

it('refuses a name that resolves to loopback, and reaches it once loopback is allowed', async () => {
  const refused = await delivery([]);
  expect(refused.ok).toBe(false);
  expect(refused.error).toMatch(/loopback address, and only public addresses are reached/);
  expect(requests).toBe(0);
  expect(await delivery(['127.0.0.0/8', '::1/128'])).toEqual({ ok: true, status: 204 });
  expect(requests).toBe(1);
});
