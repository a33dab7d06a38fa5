// Issue 60: live change streams whose clients read nothing. Each was cut at a megabyte unread, but
// nothing bounded them together: 600 such streams took 673 MiB, and at the connection cap it would
// have been gigabytes. Now the process's streams hold at most LIVE_UNREAD_BYTES together; past it
// the stream that holds the most is cut (and would resume from what it read).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { connectionsOf } from './kernel.ts';
import { startTarget, type HostileTarget } from './service.ts';

const STREAMS = Number(process.env.HOSTILE_UNREAD_STREAMS ?? 30);
const PER_USER = 6;
const BOUND = 1024 * 1024;
/** Each change is a product with a description of 5,000 characters: every stream is sent each one. */
const CHANGES = Number(process.env.HOSTILE_UNREAD_CHANGES ?? 300);

let target: HostileTarget;
beforeAll(async () => {
  target = await startTarget({ LIVE_UNREAD_BYTES: String(BOUND) });
});
afterAll(() => target?.close());

/** GET /changes of products on a socket of its own; reads its first bytes, then nothing. */
function unreadStream(port: number, cookie: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET /changes?of=products HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n\r\n`),
    );
    socket.once('data', (first) => {
      socket.pause();
      if (first.toString().startsWith('HTTP/1.1 200')) resolve(socket);
      else reject(new Error(`the stream was refused: ${first.toString().split('\r\n')[0]}`));
    });
    socket.on('error', () => undefined);
  });
}

async function unreadBytes(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${target.env.METRICS_PORT}/metrics`)).text();
  return Number(/^live_streams_unread_bytes (\S+)/m.exec(text)?.[1]);
}

describe('live streams that are not read', { timeout: 300_000 }, () => {
  it(`hold at most the bound together, ${STREAMS} of them, the fullest cut first, and give the memory back`, async () => {
    const port = Number(new URL(target.url).port);
    const beforeMiB = target.rssMiB();
    const sockets: Socket[] = [];
    for (let i = 0; i < STREAMS; i += PER_USER) {
      const user = await signedInUser(target.url);
      for (let j = 0; j < Math.min(PER_USER, STREAMS - i); j++) sockets.push(await unreadStream(port, user.cookieHeader()));
    }
    const established = () => connectionsOf(port).filter((c) => c.established).length;
    const open = established();
    const admin = await target.admin();
    const created = await admin.request('POST', '/products', { name: 'Long', price: { amount: 100, currency: 'EUR' } });
    const path = `/products/${created.body.productId}`;
    let most = 0;
    let peakMiB = beforeMiB;
    for (let i = 0; i < CHANGES; i++) {
      const changed = await admin.request('PATCH', path, { description: String.fromCharCode(97 + (i % 26)).repeat(5000) });
      expect(changed.status).toBe(200);
      if (i % 20 === 0) {
        most = Math.max(most, await unreadBytes());
        peakMiB = Math.max(peakMiB, target.rssMiB());
      }
    }
    most = Math.max(most, await unreadBytes());
    const cut = open - established();
    for (const socket of sockets) socket.destroy();
    await target.memoryReturns(beforeMiB);
    console.log(
      `unread streams: ${STREAMS} sent ${CHANGES} changes of 5 KB each; held at most ${(most / 1024).toFixed(0)} KiB together (bound ${BOUND / 1024} KiB), ${cut} streams cut; RSS ${beforeMiB.toFixed(0)} MiB before, peak ${peakMiB.toFixed(0)}, after ${target.rssMiB().toFixed(0)}`,
    );
    // One message past the bound at most: a write is measured after it is made.
    expect(most).toBeLessThanOrEqual(BOUND + 8 * 1024);
    expect(cut).toBeGreaterThan(0);
  });
});
