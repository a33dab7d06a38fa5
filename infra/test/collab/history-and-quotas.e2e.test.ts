// What one user can make the collab store keep is bounded (docs/collab.md#quotas, #history):
// each document keeps its newest ops and two milestones, a client behind that reloads, and a
// user makes and owns a bounded number of documents holding a bounded number of characters.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { startCollabApp, type CollabApp, type User } from './harness.ts';

const TEXT_TYPE = 'http://sharejs.org/types/rich-text/v1';
const EVERY_OPS = 10;
const HISTORY_OPS = 25;
/** A trim is due once a quarter more are kept, at a milestone: what a document holds at most between trims. */
const MOST_KEPT = HISTORY_OPS * 1.25 + EVERY_OPS;

/** What the store keeps of one document: its ops and milestones, by version. */
function kept(app: CollabApp, id: string): { ops: number[]; milestones: number[]; opBytes: number } {
  const db = new DatabaseSync(join(app.dir, 'collab.db'), { readOnly: true });
  try {
    const versions = (sql: string) =>
      db
        .prepare(sql)
        .all('documents', id)
        .map((row) => Number(row.v));
    const bytes = db
      .prepare('SELECT COALESCE(SUM(length(CAST(op AS BLOB))), 0) AS n FROM sharedb_ops WHERE collection = ? AND id = ?')
      .get('documents', id);
    return {
      ops: versions('SELECT v FROM sharedb_ops WHERE collection = ? AND id = ? ORDER BY v'),
      milestones: versions('SELECT v FROM sharedb_milestones WHERE collection = ? AND id = ? ORDER BY v'),
      opBytes: Number(bytes!.n),
    };
  } finally {
    db.close();
  }
}

/** Sends one op message and waits for its answer: the ack, or the error. */
const sequences = new WeakMap<RawClient, number>();
async function sendOp(client: RawClient, message: Record<string, unknown>): Promise<{ error?: { code: string; message: string } }> {
  const seq = (sequences.get(client) ?? 0) + 1;
  sequences.set(client, seq);
  client.send({ a: 'op', c: 'documents', src: client.id, seq, ...message });
  return client.reply((m) => m.a === 'op' && m.seq === seq && m.src === client.id, `the answer to op ${seq}`);
}

describe('the history a document keeps', () => {
  let app: CollabApp;
  let owner: User;
  const texts = new Map<number, { text: string; at: string }>();

  beforeAll(async () => {
    app = await startCollabApp({
      env: {
        COLLAB_SNAPSHOT_EVERY_OPS: String(EVERY_OPS),
        COLLAB_SNAPSHOT_EVERY_SECONDS: '3600',
        COLLAB_HISTORY_OPS: String(HISTORY_OPS),
        COLLAB_HISTORY_BYTES: '4096',
      },
    });
    owner = await app.newUser();
    const client = await owner.editor();
    const doc = await openText(client.doc('long'));
    for (let n = 1; n <= 99; n++) {
      const end = textOf(doc).length;
      await submit(doc, end ? [{ retain: end }, { insert: `w${n} ` }] : [{ insert: `w${n} ` }]);
      texts.set(doc.version!, { text: textOf(doc), at: new Date().toISOString() });
      const next = Date.now() + 2;
      while (Date.now() < next);
    }
    // Large ops: the bytes kept bound the history before the count does.
    const big = await openText(client.doc('big'));
    for (let n = 1; n <= 40; n++) await submit(big, n % 2 ? [{ insert: 'x'.repeat(500) }] : [{ delete: 500 }]);
    client.close();
    await app.collab.collab.history.idle();
  });
  afterAll(() => app?.close());

  it('keeps the newest ops, at most the count and the bytes, and two milestones', () => {
    const long = kept(app, 'long');
    expect(long.ops.length).toBeLessThanOrEqual(MOST_KEPT);
    expect(long.ops.at(-1)).toBe(99);
    expect(long.milestones).toHaveLength(2);
    expect(long.milestones[0]).toBe(long.ops[0]);
    const big = kept(app, 'big');
    // 4096 bytes at the last trim, and what came since; each op is ~540 bytes.
    expect(big.opBytes).toBeLessThanOrEqual(4096 + EVERY_OPS * 600);
    expect(big.ops.length).toBeLessThan(HISTORY_OPS);
  });

  it('reads every kept version as it was, and names the field for one before', async () => {
    const from = kept(app, 'long').ops[0]!;
    for (const [version, { text }] of texts) {
      if (version < from) continue;
      expect((await owner.http.request('GET', `/collab/documents/long?version=${version}`)).body).toMatchObject({ version, text });
    }
    const before = await owner.http.request('GET', '/collab/documents/long?version=2');
    expect(before.status).toBe(400);
    expect(before.body.errors[0]).toMatchObject({ field: 'version', message: expect.stringContaining(`starts at version ${from}`) });
    const early = await owner.http.request('GET', `/collab/documents/long?at=${texts.get(2)!.at}`);
    expect(early.status).toBe(400);
    expect(early.body.errors[0].field).toBe('at');
  });

  it('lets the whole history of a deleted document go', async () => {
    const client = await owner.editor();
    const doc = await openText(client.doc('short-lived'));
    for (let n = 0; n < 3 * EVERY_OPS; n++) await submit(doc, [{ insert: 'x' }]);
    expect(kept(app, 'short-lived').ops.length).toBeGreaterThan(0);
    await new Promise<void>((resolve, reject) => doc.del({}, (error) => (error ? reject(error) : resolve())));
    client.close();
    await app.collab.collab.history.idle();
    const deletedAt = 3 * EVERY_OPS + 2;
    expect(kept(app, 'short-lived')).toEqual({ ops: [], milestones: [deletedAt], opBytes: 0 });
    // Made again, it keeps and trims a history of its own, and reads at each of its versions.
    const again = await owner.editor();
    const made = await openText(again.doc('short-lived'));
    for (let n = 0; n < 4 * HISTORY_OPS; n++) await submit(made, [{ insert: 'y' }]);
    again.close();
    await app.collab.collab.history.idle();
    const history = kept(app, 'short-lived');
    expect(history.ops.length).toBeLessThanOrEqual(MOST_KEPT);
    expect(history.ops[0]).toBeGreaterThan(deletedAt);
    const oldest = history.ops[0]!;
    const read = await owner.http.request('GET', `/collab/documents/short-lived?version=${oldest}`);
    expect(read.body).toMatchObject({ version: oldest, text: 'y'.repeat(oldest - deletedAt - 1) });
  });

  it('tells a client further behind than the kept history to reload, and the reload works', async () => {
    const client = await rawClient(app.url, owner.http.cookieHeader());
    try {
      client.send({ a: 's', c: 'documents', d: 'long', v: 3 });
      const behind = await client.reply((m) => m.a === 's' && m.d === 'long', 'the subscription from version 3');
      expect(behind.error?.code).toBe('ERR_TOO_FAR_BEHIND');
      client.send({ a: 's', c: 'documents', d: 'long' });
      const fresh = await client.reply((m) => m.a === 's' && m.d === 'long' && !m.error, 'a subscription without a version');
      expect(fresh.data.v).toBe(100);
    } finally {
      client.socket.close();
    }
  });
});

describe('documents a user makes in an hour', () => {
  let app: CollabApp;

  beforeAll(async () => {
    app = await startCollabApp({ env: { COLLAB_DOCUMENTS_PER_HOUR: '4' } });
  });
  afterAll(() => app?.close());

  it('counts documents made by the route and over the WebSocket against one budget an hour', async () => {
    const user = await app.newUser();
    const ws = await rawClient(app.url, user.http.cookieHeader());
    try {
      expect((await user.http.request('POST', '/collab/documents', { title: 'one' })).status).toBe(201);
      expect((await sendOp(ws, { d: `ws-${user.userId}-a`, v: 0, create: { type: TEXT_TYPE, data: [] } })).error).toBeUndefined();
      // Deleting keeps the count of the hour: it is documents made, not owned.
      expect((await sendOp(ws, { d: `ws-${user.userId}-a`, v: 1, del: true })).error).toBeUndefined();
      expect((await user.http.request('POST', '/collab/documents', { title: 'two' })).status).toBe(201);
      expect((await user.http.request('POST', '/collab/documents', { title: 'three' })).status).toBe(201);
      const refused = await user.http.request('POST', '/collab/documents', { title: 'five' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const overWs = await sendOp(ws, { d: `ws-${user.userId}-b`, v: 0, create: { type: TEXT_TYPE, data: [] } });
      expect(overWs.error?.code).toBe('ERR_RATE_LIMITED');
    } finally {
      ws.socket.close();
    }
  });
});

describe('what one user may keep', () => {
  let app: CollabApp;

  beforeAll(async () => {
    app = await startCollabApp({ env: { COLLAB_MAX_DOCUMENTS_PER_USER: '3', COLLAB_MAX_CHARACTERS_PER_USER: '100' } });
  });
  afterAll(() => app?.close());

  it('refuses a document past those a user may own, by either way, until they delete one', async () => {
    const user = await app.newUser();
    const ws = await rawClient(app.url, user.http.cookieHeader());
    try {
      for (const title of ['a', 'b']) expect((await user.http.request('POST', '/collab/documents', { title })).status).toBe(201);
      expect((await sendOp(ws, { d: `own-${user.userId}`, v: 0, create: { type: TEXT_TYPE, data: [] } })).error).toBeUndefined();
      const refused = await user.http.request('POST', '/collab/documents', { title: 'd' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ type: '/problems/quota-reached', detail: expect.stringContaining('3 documents') });
      expect((await sendOp(ws, { d: `own2-${user.userId}`, v: 0, create: { type: TEXT_TYPE, data: [] } })).error?.code).toBe('ERR_QUOTA');
      expect((await sendOp(ws, { d: `own-${user.userId}`, v: 1, del: true })).error).toBeUndefined();
      expect((await user.http.request('POST', '/collab/documents', { title: 'e' })).status).toBe(201);
      // Making the deleted one again would make four.
      const again = await sendOp(ws, { d: `own-${user.userId}`, v: 2, create: { type: TEXT_TYPE, data: [] } });
      expect(again.error?.code).toBe('ERR_QUOTA');
    } finally {
      ws.socket.close();
    }
  });

  it('holds the count of documents owned when a user asks for many at once', async () => {
    const user = await app.newUser();
    const asked = await Promise.all(
      Array.from({ length: 8 }, (_, n) => user.http.request('POST', '/collab/documents', { title: `at once ${n}` })),
    );
    expect(asked.map((reply) => reply.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
  });

  it('refuses text past the characters a user’s documents may hold together; deleting always works', async () => {
    const user = await app.newUser();
    const ws = await rawClient(app.url, user.http.cookieHeader());
    const [one, two] = [`chars-${user.userId}-1`, `chars-${user.userId}-2`];
    try {
      expect((await sendOp(ws, { d: one, v: 0, create: { type: TEXT_TYPE, data: [{ insert: 'a'.repeat(60) }] } })).error).toBeUndefined();
      expect((await sendOp(ws, { d: two, v: 0, create: { type: TEXT_TYPE, data: [] } })).error).toBeUndefined();
      const over = await sendOp(ws, { d: two, v: 1, op: [{ insert: 'b'.repeat(50) }] });
      expect(over.error).toMatchObject({ code: 'ERR_QUOTA', message: expect.stringContaining('100 characters') });
      expect((await sendOp(ws, { d: two, v: 1, op: [{ insert: 'b'.repeat(40) }] })).error).toBeUndefined();
      expect((await sendOp(ws, { d: one, v: 1, op: [{ delete: 30 }] })).error).toBeUndefined();
      expect((await sendOp(ws, { d: two, v: 2, op: [{ insert: 'c'.repeat(30) }] })).error).toBeUndefined();
      expect((await sendOp(ws, { d: two, v: 3, op: [{ insert: 'd' }] })).error?.code).toBe('ERR_QUOTA');
    } finally {
      ws.socket.close();
    }
  });

  it('counts what named versions keep against the same characters, and gives it back when a name is taken off', async () => {
    const user = await app.newUser();
    const ws = await rawClient(app.url, user.http.cookieHeader());
    const doc = `named-${user.userId}`;
    const versions = `/collab/documents/${doc}/versions`;
    try {
      expect((await sendOp(ws, { d: doc, v: 0, create: { type: TEXT_TYPE, data: [{ insert: 'a'.repeat(40) }] } })).error).toBeUndefined();
      // 40 held, and 40 kept by the name.
      expect((await user.http.request('POST', versions, { name: 'first', version: 1 })).status).toBe(201);
      expect((await sendOp(ws, { d: doc, v: 1, op: [{ retain: 40 }, { insert: 'b' }] })).error).toBeUndefined();
      // 41 held and 40 kept: a name of version 2 would keep 41 more.
      const refused = await user.http.request('POST', versions, { name: 'second', version: 2 });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ type: '/problems/quota-reached', detail: expect.stringContaining('100 characters') });
      // Typing counts what the name keeps too: 41 + 40 + 20 is past 100.
      expect((await sendOp(ws, { d: doc, v: 2, op: [{ insert: 'c'.repeat(20) }] })).error?.code).toBe('ERR_QUOTA');
      // The same version named again keeps nothing more.
      expect((await user.http.request('POST', versions, { name: 'first, renamed', version: 1 })).status).toBe(201);
      // Taken off, its characters are free again.
      expect((await user.http.request('DELETE', `${versions}/1`)).status).toBe(204);
      expect((await user.http.request('POST', versions, { name: 'second', version: 2 })).status).toBe(201);
      expect((await sendOp(ws, { d: doc, v: 2, op: [{ insert: 'c'.repeat(20) }] })).error?.code).toBe('ERR_QUOTA');
      expect((await sendOp(ws, { d: doc, v: 2, op: [{ insert: 'c'.repeat(10) }] })).error).toBeUndefined();
    } finally {
      ws.socket.close();
    }
  });
});
