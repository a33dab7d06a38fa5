// Disk by any signed-in user (issue 44, case 4), on the real process: typing and deleting the same
// 200,000 characters again and again on four connections grew collab.db by ~20 MB a second when
// every op was kept, and POST /collab/documents made 2,000 documents in 3 s. Each document now
// keeps a bounded history (docs/collab.md#history) and a user makes a bounded number of documents
// an hour, so the store's size stays within a bound however long the abuse goes on.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { healthy, startTarget, type HostileTarget } from './service.ts';

const CONNECTIONS = 4;
const OPS = Number(process.env.HOSTILE_DISK_OPS ?? 120);
const CHARACTERS = 200_000;
const TEXT_TYPE = 'http://sharejs.org/types/rich-text/v1';
const HISTORY_BYTES = 2 * 2 ** 20;
const DOCUMENTS_PER_HOUR = 100;

let target: HostileTarget;
let user: JsonClient;

beforeAll(async () => {
  target = await startTarget();
  user = jsonClient(target.url);
  await signUp(user);
});
afterAll(() => target?.close());

/** The collab store on disk: the database and its write-ahead log. */
function storeMiB(): number {
  const size = (name: string) => {
    try {
      return statSync(join(target.dataDir, name)).size;
    } catch {
      return 0;
    }
  };
  return (size('collab.db') + size('collab.db-wal')) / 2 ** 20;
}

/** Submits ops one after another, each waiting for its answer, as fast as the server takes them. */
async function typeAndDelete(client: RawClient, id: string): Promise<void> {
  const text = 'z'.repeat(CHARACTERS);
  let seq = 1;
  client.send({ a: 'op', c: 'documents', d: id, v: 0, src: client.id, seq, create: { type: TEXT_TYPE, data: [] } });
  await client.reply((m) => m.a === 'op' && m.seq === seq, 'the document to be made');
  for (let v = 1; v <= OPS; v++) {
    seq += 1;
    const op = v % 2 ? [{ insert: text }] : [{ delete: CHARACTERS }];
    client.send({ a: 'op', c: 'documents', d: id, v, src: client.id, seq, op });
    const answer = await client.reply((m) => m.a === 'op' && m.seq === seq, `op ${v}`, client.inbox.length - 1);
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  }
}

describe('disk spent by one signed-in user', { timeout: 300_000 }, () => {
  it('stays within the history each document keeps, however many ops are sent', async () => {
    const before = storeMiB();
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => rawClient(target.url, user.cookieHeader())));
    try {
      await Promise.all(clients.map((client, n) => typeAndDelete(client, `disk-${n}`)));
    } finally {
      for (const client of clients) client.socket.close();
    }
    expect(await healthy(target.url)).toBe(true);
    const sentMiB = (CONNECTIONS * OPS * CHARACTERS) / 2 / 2 ** 20;
    // Per document: its history and as much again while a trim runs (commits wait past that), the
    // text and two milestones; and the write-ahead log, checkpointed every 4 MiB or so.
    const boundMiB = CONNECTIONS * ((2 * HISTORY_BYTES) / 2 ** 20 + 3 * (CHARACTERS / 2 ** 20) + 0.5) + 8;
    const grown = storeMiB() - before;
    console.log(`collab store: ${sentMiB.toFixed(0)} MiB of text inserted, grew ${grown.toFixed(1)} MiB (bound ${boundMiB.toFixed(0)})`);
    expect(grown).toBeLessThan(boundMiB);
  });

  it('makes at most the documents a user may make in an hour, however fast they are asked for', async () => {
    const replies: number[] = [];
    for (let i = 0; i < 3 * DOCUMENTS_PER_HOUR; i += 30) {
      const batch = await Promise.all(
        Array.from({ length: 30 }, (_, n) => user.request('POST', '/collab/documents', { title: `flood ${i + n}` }).then((r) => r.status)),
      );
      replies.push(...batch);
    }
    // Four documents of the first test count too.
    expect(replies.filter((s) => s === 201)).toHaveLength(DOCUMENTS_PER_HOUR - CONNECTIONS);
    expect(replies.filter((s) => s !== 201).every((s) => s === 429)).toBe(true);
  });

  it('gives back the memory the abuse took', async () => {
    await target.memoryReturns();
  });
});
