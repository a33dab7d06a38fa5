// Issues 44 and 60: slow readers of a large static file. Each asks for Swagger UI's 1.7 MB bundle
// uncompressed and then reads nothing. Served from one buffer in memory, the file costs the process
// the same for a thousand such readers as for one (read from disk per request, 2,000 of them took
// RSS from 227 MiB to 2.7 GiB). Outside the process, each reader's socket pinned about 2 MiB of the
// kernel's memory for as long as it liked (1,000 readers: 2,182 MiB of the host): now the send
// buffer is bounded (HTTP_SEND_BUFFER_BYTES) and a reader that takes nothing for the send timeout
// (HTTP_SEND_TIMEOUT_MS) is reset, which frees what the kernel held for it.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { until } from '@eventide/testing/wait.ts';
import { connectionsOf, hostAvailableMiB, sendQueueBytes } from './kernel.ts';
import { startTarget, type HostileTarget } from './service.ts';

const READERS = Number(process.env.HOSTILE_SLOW_READERS ?? 300);
/** Readers come from this many addresses (X-Forwarded-For: the target trusts one proxy hop). */
const ADDRESSES = 6;
/** What the readers may cost the process together, above what it held before them. */
const ABOVE_IDLE_MIB = 100;
const SEND_TIMEOUT_MS = 3000;
/** What Linux keeps for each send buffer: twice what is asked, and a segment's bookkeeping past it. */
const KERNEL_BYTES_PER_READER = 2 * loadConfig({}).HTTP_SEND_BUFFER_BYTES + 64 * 1024;

let target: HostileTarget;
let port: number;
beforeAll(async () => {
  target = await startTarget({ HTTP_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS) });
  port = Number(new URL(target.url).port);
  // The files are compressed in the background from the start: one request waits for them.
  expect((await fetch(`${target.url}/docs/swagger-ui-bundle.js`)).status).toBe(200);
});
afterAll(() => target?.close());

function slowReader(index: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\nX-Forwarded-For: 198.51.100.${index % ADDRESSES}\r\n\r\n`,
      );
      // Reads its first bytes (the answer has begun), then nothing more.
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
    });
    // A paused socket does not look at its kernel's state: the server's reset shows in the
    // server's connections (connectionsOf), not here.
    socket.once('error', reject);
  });
}

/** Milliseconds of each of `count` requests of another client, one after another. */
async function anotherClient(count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const answer = await fetch(`${target.url}/products?limit=5`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    await answer.arrayBuffer();
    expect(answer.status).toBe(200);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

describe('slow readers of a large static file', { timeout: 180_000 }, () => {
  it(`cost the server one copy of the file and a bounded send buffer each, ${READERS} of them, and are reset when they take nothing`, async () => {
    const idle = target.rssMiB();
    const hostBefore = hostAvailableMiB();
    const readers: Socket[] = [];
    for (let i = 0; i < READERS; i += 25)
      readers.push(...(await Promise.all(Array.from({ length: Math.min(25, READERS - i) }, (_, j) => slowReader(i + j)))));
    const held = target.rssMiB();
    const queued = sendQueueBytes(port);
    const hostHeld = hostBefore - hostAvailableMiB();
    // Another address is answered while they hold on.
    const times = await anotherClient(20);

    // The other client's pooled keep-alive connections may still be open, and hold nothing.
    await until(
      () => connectionsOf(port).filter((c) => c.sendQueue > 0).length === 0 && connectionsOf(port).length < READERS / 10,
      () => `every reader reset (${connectionsOf(port).length} connections open, ${sendQueueBytes(port)} bytes queued)`,
      60_000,
    );
    for (const reader of readers) reader.destroy();
    await target.memoryReturns();
    console.log(
      `slow readers: ${READERS} from ${ADDRESSES} addresses holding /docs/swagger-ui-bundle.js uncompressed; RSS idle ${idle.toFixed(0)}, held ${held.toFixed(0)}, after ${target.rssMiB().toFixed(0)} MiB; ` +
        `server send queues ${(queued / 2 ** 20).toFixed(1)} MiB (${(queued / READERS / 1024).toFixed(0)} KiB a reader); host memory taken ${hostHeld.toFixed(0)} MiB, readers' own receive buffers included; ` +
        `another client's p50 ${times[10]?.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms; all reset within the ${SEND_TIMEOUT_MS} ms send timeout`,
    );
    expect(held - idle).toBeLessThan(ABOVE_IDLE_MIB);
    expect(queued).toBeLessThan(READERS * KERNEL_BYTES_PER_READER);
  });
});
