// Issue 60, through the front door: slow readers of the largest static file. Each asked for
// Swagger UI's bundle and read nothing. nginx first spooled what the process sent it to temporary
// files (639 to 679 MiB for 1,000 readers) and another client waited up to 12 s; then, kept in
// memory only, each reader still held about 495 KiB in the door's connection to the process and
// 131 KiB in the process's send queue. Now the door answers such a file from its own copy (the
// process marks it with X-Accel-Expires), so a reader costs the process nothing; the door bounds
// each client's send buffer (listen sndbuf=) and closes a client's connection on which nothing
// moved for the send timeout (the stream server's proxy_timeout).
//
// What a reader still costs the door: its client send buffer, the stream server's buffers, and
// the local hop from the HTTP server to the stream server. That hop's socket buffer is the
// kernel's default (208 KiB), which nginx cannot lower; the HTTP server hands the copy to it with
// sendfile, so what it holds are references to the copy's pages, the same pages for every reader,
// not 1,000 copies of them (with sendfile off, nginx's own memory grew 97 MiB more for 1,000
// readers, and the host's by 300 to 670 MiB against 160 to 280).
import { readdirSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { until } from '@eventide/testing/wait.ts';
import { NGINX_MISSING, nginxAvailable, startFrontDoor, type FrontDoor } from '../front-door.ts';
import { clientReceiveQueueBytes, connectionsOf, hostAvailableMiB, proportionalMiB, sendQueueBytes } from './kernel.ts';
import { startTarget, type HostileTarget } from './service.ts';

const READERS = Number(process.env.HOSTILE_DOOR_SLOW_READERS ?? 200);
const SEND_TIMEOUT_MS = 3000;
const ADDRESSES = 6;

if (!nginxAvailable) console.warn(NGINX_MISSING);

/** Bytes in the files under `dir`, however deep. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

describe.skipIf(!nginxAvailable)('slow readers of a large static file through the front door', { timeout: 180_000 }, () => {
  let target: HostileTarget;
  let door: FrontDoor;
  let fileBytes: number;
  beforeAll(async () => {
    const env = { HTTP_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS) };
    target = await startTarget(env);
    const at = [new URL(target.url).host];
    door = await startFrontDoor({ command: at, query: at, collab: at, site: at }, env);
    const file = await fetch(`${door.url}/docs/swagger-ui-bundle.js`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(file.status).toBe(200);
    fileBytes = (await file.arrayBuffer()).byteLength;
  });
  afterAll(async () => {
    await door?.stop();
    await target?.close();
  });

  /** Readers come from several addresses, each within the door's cap per address. */
  function slowReader(port: number, index: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: `127.0.3.${(index % ADDRESSES) + 1}` }, () =>
        socket.write('GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\n\r\n'),
      );
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  it(`hold bounded buffers and no files, ${READERS} of them, and are closed when they take nothing`, async () => {
    const doorPort = Number(new URL(door.url).port);
    const hostBefore = hostAvailableMiB();
    const doorBefore = proportionalMiB(door.processIds());
    const readers: Socket[] = [];
    for (let i = 0; i < READERS; i += 25)
      readers.push(...(await Promise.all(Array.from({ length: Math.min(25, READERS - i) }, (_, j) => slowReader(doorPort, i + j)))));
    const queued = sendQueueBytes(doorPort);
    const processQueued = sendQueueBytes(Number(new URL(target.url).port));
    const hostHeld = hostBefore - hostAvailableMiB();
    const readersHold = clientReceiveQueueBytes(doorPort) / 2 ** 20;
    const doorGrew = proportionalMiB(door.processIds()) - doorBefore;
    const kept = bytesUnder(join(door.directory, 'cache'));
    const spooled = bytesUnder(door.directory) - kept;
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const answer = await fetch(`${door.url}/api/products?limit=5`);
      await answer.arrayBuffer();
      expect(answer.status).toBe(200);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    // The door closes them (its stream server cannot reset); what its kernel still held for them
    // is given up once its probes of their closed windows go unanswered.
    await until(
      () => connectionsOf(doorPort).filter((c) => c.established && c.sendQueue > 0).length === 0,
      () => `every reader closed by the door (${connectionsOf(doorPort).filter((c) => c.established).length} still open)`,
      60_000,
    );
    for (const reader of readers) reader.destroy();
    console.log(
      `door slow readers: ${READERS} from ${ADDRESSES} addresses holding /docs/swagger-ui-bundle.js; door send queues ${(queued / 2 ** 20).toFixed(1)} MiB (${(queued / READERS / 1024).toFixed(0)} KiB a reader), ` +
        `the process's send queues ${(processQueued / 2 ** 20).toFixed(1)} MiB; nginx's own memory grew ${doorGrew.toFixed(0)} MiB (${((doorGrew * 1024) / READERS).toFixed(0)} KiB a reader); the door's copies ${(kept / 2 ** 20).toFixed(1)} MiB, its other files ${(spooled / 2 ** 20).toFixed(1)} MiB; host memory taken ${hostHeld.toFixed(0)} MiB, of which the readers' own receive queues ${readersHold.toFixed(0)} MiB; another client's p50 ${times[10]?.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms`,
    );
    // One copy of the file (the readers ask for it uncompressed) and nothing spooled beside it:
    // logs and the pid file only.
    expect(kept).toBeLessThan(2 * fileBytes);
    expect(spooled).toBeLessThan(1024 * 1024);
    // The readers hold no connection to the process: what its kernel holds is another client's.
    expect(processQueued).toBeLessThan(1024 * 1024);
    expect(queued).toBeLessThan(READERS * (2 * loadConfig({}).HTTP_SEND_BUFFER_BYTES + 64 * 1024));
    // nginx's own share: its connections and the stream server's two 8 KiB buffers, about 27 KiB
    // a reader, and no copy of the answer (with sendfile off, 2 output buffers of 32 KiB more).
    expect(doorGrew).toBeLessThan(8 + (READERS * 48) / 1024);
    // Issue 60's bound: 1,000 readers cost the door's host under 200 MB (both of the above together).
    expect(queued + doorGrew * 2 ** 20).toBeLessThan(8 * 2 ** 20 + READERS * 200_000);
  });
});
