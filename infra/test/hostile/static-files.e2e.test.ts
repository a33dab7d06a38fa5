// Issue 44, case 2: slow readers of a large static file. Each asks for Swagger UI's 1.7 MB bundle
// uncompressed and then reads nothing, so the server holds what it could not send. Served from one
// buffer in memory, the file costs the server the same for a thousand such readers as for one; read
// from disk per request, each held its own copy (2,000 of them took RSS from 227 MiB to 2.7 GiB).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, type HostileTarget } from './service.ts';

const READERS = Number(process.env.HOSTILE_SLOW_READERS ?? 300);
/** What the readers may cost together, above the process before them. */
const ABOVE_IDLE_MIB = 100;

let target: HostileTarget;
beforeAll(async () => {
  target = await startTarget();
  // The files are compressed in the background from the start: one request waits for them.
  expect((await fetch(`${target.url}/docs/swagger-ui-bundle.js`)).status).toBe(200);
}, 60_000);
afterAll(() => target?.close());

function slowReader(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\n\r\n');
      // Reads its first bytes (the answer has begun), then nothing more.
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
    });
    socket.once('error', reject);
  });
}

describe('slow readers of a large static file', { timeout: 180_000 }, () => {
  it(`cost the server one copy of the file, whether ${READERS} readers hold it or none, and the memory goes once they leave`, async () => {
    const idle = target.rssMiB();
    const port = Number(new URL(target.url).port);
    const readers: Socket[] = [];
    for (let i = 0; i < READERS; i += 25)
      readers.push(...(await Promise.all(Array.from({ length: Math.min(25, READERS - i) }, () => slowReader(port)))));
    const held = target.rssMiB();
    expect(await fetch(`${target.url}/health`).then((r) => r.status)).toBe(200);
    for (const reader of readers) reader.destroy();
    await target.memoryReturns();
    console.log(
      `slow readers: ${READERS} holding ${'/docs/swagger-ui-bundle.js'} uncompressed; RSS idle ${idle.toFixed(0)}, held ${held.toFixed(0)}, after ${target.rssMiB().toFixed(0)} MiB`,
    );
    expect(held - idle).toBeLessThan(ABOVE_IDLE_MIB);
  });
});
