// A flood of collaborative edits against the real process: many editors each submit a burst of
// ops made against an old version, which ShareDB answers with every op committed since. Left
// unbounded this once sent ~2 million messages for 20 x 100 ops, stopped /health for 36 s and
// kept 1.75 GB. Each connection's cost must stay bounded, in messages, memory and the server's
// attention, and ending the flooders' sessions must leave none of their sockets open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { healthy, startTarget, type HostileTarget } from './service.ts';

const EDITORS = Number(process.env.HOSTILE_FLOOD_EDITORS ?? 10);
const OPS = Number(process.env.HOSTILE_FLOOD_OPS ?? 100);
const DOC = 'flood';
const TEXT_TYPE = 'http://sharejs.org/types/rich-text/v1';

let target: HostileTarget;
let owner: JsonClient;
const flooders: Array<{ http: JsonClient; client: RawClient; received: number }> = [];

beforeAll(async () => {
  target = await startTarget();
  owner = jsonClient(target.url);
  await signUp(owner);
  const creator = await rawClient(target.url, owner.cookieHeader());
  creator.send({ a: 'op', c: 'documents', d: DOC, v: 0, src: creator.id, seq: 1, create: { type: TEXT_TYPE, data: [] } });
  await creator.reply((m) => m.a === 'op' && m.seq === 1, 'the document to be created');
  creator.socket.close();
  for (let i = 0; i < EDITORS; i++) {
    const http = jsonClient(target.url);
    const me = await signUp(http);
    await owner.request('PUT', `/collab/documents/${DOC}/editors/${me.userId}`);
    const client = await rawClient(target.url, http.cookieHeader());
    const flooder = { http, client, received: 0 };
    client.socket.on('message', () => (flooder.received += 1));
    flooders.push(flooder);
  }
}, 120_000);
afterAll(async () => {
  for (const { client } of flooders) client.socket.close();
  await target?.close();
});

/** Replies to the flooder's own ops: an ack (no op in it) or an error. */
const answersTo = ({ client }: { client: RawClient }) =>
  client.inbox.filter((m) => m.a === 'op' && m.src === client.id && (m.error !== undefined || !('op' in m))).length;

describe('a flood of ops against an old version', { timeout: 180_000 }, () => {
  it('costs each connection a bounded number of messages and the server a bounded amount of memory, and /health keeps answering', async () => {
    const rssBefore = target.rssMiB();
    let floodOver = false;
    let answeredDuringFlood = 0;
    const prober = (async () => {
      while (!floodOver) {
        if ((await healthy(target.url)) && !floodOver) answeredDuringFlood += 1;
      }
    })();
    for (const { client } of flooders) {
      for (let seq = 1; seq <= OPS; seq++)
        client.send({ a: 'op', c: 'documents', d: DOC, v: 1, src: client.id, seq, op: [{ insert: 'x' }] });
    }
    await until(
      () => flooders.every((f) => answersTo(f) >= OPS || f.client.closed !== undefined),
      'every flooded op to be answered',
      150_000,
    );
    floodOver = true;
    await prober;

    const version = (await owner.request('GET', `/collab/documents/${DOC}`)).body.version as number;
    for (const flooder of flooders) {
      expect(flooder.client.closed, 'a flooder was cut off instead of answered').toBeUndefined();
      // Its own ops answered, plus each committed op at most once (ShareDB alone repeats them per op).
      expect(flooder.received).toBeLessThanOrEqual(OPS + version + 10);
    }
    const messages = flooders.reduce((sum, f) => sum + f.received, 0);
    console.log(
      `collab flood: ${EDITORS} editors x ${OPS} ops: ${messages} messages sent to them, /health answered ${answeredDuringFlood} times during it, rss ${rssBefore.toFixed(0)} -> ${target.rssMiB().toFixed(0)} MiB`,
    );
    expect(answeredDuringFlood).toBeGreaterThan(0);
    expect(target.rssMiB() - rssBefore).toBeLessThan(250);
    const codes = new Set(flooders.flatMap(({ client }) => client.inbox.filter((m) => m.error).map((m) => m.error.code as string)));
    for (const code of codes) expect(['ERR_TOO_FAR_BEHIND', 'ERR_RATE_LIMITED']).toContain(code);
  });

  it('lets one user hold no more than the allowed number of connections', async () => {
    const http = jsonClient(target.url);
    await signUp(http);
    const held: RawClient[] = [];
    try {
      const attempts = await Promise.allSettled(Array.from({ length: 12 }, () => rawClient(target.url, http.cookieHeader())));
      for (const a of attempts) if (a.status === 'fulfilled') held.push(a.value);
      expect(held).toHaveLength(8);
      const refused = attempts.find((a) => a.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as { status: number }).status).toBe(429);
    } finally {
      for (const client of held) client.socket.close();
    }
  });

  it('leaves no socket of a flooder open once its session is ended, flood or not', async () => {
    for (const { client } of flooders) {
      for (let seq = OPS + 1; seq <= OPS + 20; seq++)
        client.send({ a: 'op', c: 'documents', d: DOC, v: 1, src: client.id, seq, op: [{ insert: 'y' }] });
    }
    await Promise.all(flooders.map(({ http }) => http.request('POST', '/auth/sign-out')));
    await until(() => flooders.every(({ client }) => client.closed !== undefined), 'every flooder’s socket to close');
    expect(new Set(flooders.map(({ client }) => client.closed!.code))).toEqual(new Set([4401]));
  });

  it('gives back the memory the abuse took, within a minute', () => target.memoryReturns(), 90_000);
});
