// Issue 60, at the front door: connections that trickle their headers. nginx's HTTP limit_conn
// counts a connection only once its headers are read, so one address could hold any number of
// slow ones, and 64 addresses filled the door's 16,384. Now a stream server takes the clients'
// connections and caps them per address from their first byte (nginx.ts, clientListener), with room
// for many addresses at their cap: one address holds at most its share, and another address is
// answered while many hold theirs.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { until } from '@eventide/testing/wait.ts';
import { NGINX_MISSING, nginxAvailable, startFrontDoor, type FrontDoor } from '../front-door.ts';
import { connectionsOf } from './kernel.ts';
import { startTarget, type HostileTarget } from './service.ts';

const PER_ADDRESS = loadConfig({}).HTTP_MAX_CONNECTIONS_PER_ADDRESS;
const ADDRESSES = 42;
const EACH = Number(process.env.HOSTILE_DOOR_SLOW_EACH ?? 10);

if (!nginxAvailable) console.warn(NGINX_MISSING);

describe.skipIf(!nginxAvailable)('slow-header connections at the front door', { timeout: 180_000 }, () => {
  let target: HostileTarget;
  let door: FrontDoor;
  let port: number;
  beforeAll(async () => {
    target = await startTarget();
    const at = [new URL(target.url).host];
    // Two workers: each client's connection is three of nginx's descriptors.
    door = await startFrontDoor({ command: at, query: at, collab: at, site: at }, {}, 2);
    port = Number(new URL(door.url).port);
  });
  afterAll(async () => {
    await door?.stop();
    await target?.close();
  });

  /** A connection from `address` that starts a request and never finishes its headers; `again` opens another when it is closed. */
  function slow(address: string, held: Set<Socket>, again: () => boolean): void {
    const socket = connect({ port, host: '127.0.0.1', localAddress: address }, () =>
      socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: '),
    );
    held.add(socket);
    socket.resume();
    socket.on('error', () => undefined);
    socket.once('close', () => {
      held.delete(socket);
      if (again()) setImmediate(() => slow(address, held, again));
    });
  }

  it(`holds at most ${PER_ADDRESS} of one address's slow connections, counted from their first byte`, async () => {
    const held = new Set<Socket>();
    for (let i = 0; i < PER_ADDRESS + 100; i++) slow('127.0.5.1', held, () => false);
    // The door's side: connections it holds from that address (each is also one to its HTTP server).
    await until(
      () => held.size <= PER_ADDRESS,
      () => `the connections past the share closed (${held.size} open)`,
      30_000,
    );
    expect(held.size).toBeGreaterThan(PER_ADDRESS - 10);
    for (const socket of held) socket.destroy();
  });

  it(`answers another address while ${ADDRESSES} addresses hold ${EACH} slow connections each, and reconnect`, async () => {
    let attacking = true;
    const held = new Set<Socket>();
    for (let a = 0; a < ADDRESSES; a++) for (let i = 0; i < EACH; i++) slow(`127.0.6.${a + 1}`, held, () => attacking);
    await until(
      () => connectionsOf(port).filter((c) => c.established).length >= ADDRESSES * EACH,
      () => `the slow connections to be taken (${connectionsOf(port).length})`,
      60_000,
    );
    const times: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const answer = await fetch(`${door.url}/health`, { headers: { Connection: 'close' } });
      await answer.arrayBuffer();
      statuses.push(answer.status);
      times.push(performance.now() - started);
    }
    attacking = false;
    for (const socket of held) socket.destroy();
    times.sort((a, b) => a - b);
    console.log(
      `door crowd: ${ADDRESSES} addresses x ${EACH} slow-header connections; another address's 50 requests: ${statuses.filter((s) => s === 200).length} answered 200, p50 ${times[25]?.toFixed(1)} ms, p99 ${times[49]?.toFixed(1)} ms`,
    );
    expect(statuses).toEqual(statuses.map(() => 200));
  });
});
