// Done-when: N editors submit random concurrent inserts and deletes (seeded, so a failure can be
// replayed with COLLAB_SEED=<seed>) and all end with the server's text.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCollabApp, type CollabApp } from './harness.ts';
import { converged, openText, textOf, type Doc, type EditorClient } from '@eventide/testing/collab/editor-client.ts';

const SEED = Number(process.env.COLLAB_SEED ?? 20261121);
const EDITORS = 6;
const ROUNDS = 40;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let app: CollabApp;
const clients: EditorClient[] = [];
beforeAll(async () => {
  app = await startCollabApp();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await app.close();
});

it(`converges: ${EDITORS} editors, ${ROUNDS} random concurrent edits each (seed ${SEED})`, async () => {
  const owner = await app.newUser();
  const others = await Promise.all(Array.from({ length: EDITORS - 1 }, () => app.newUser()));
  const id = `convergence-${SEED}`;
  const first = await owner.editor();
  clients.push(first);
  const docs: Doc[] = [await openText(first.doc(id))];
  for (const user of others) {
    expect((await owner.http.request('PUT', `/collab/documents/${id}/editors/${user.userId}`)).status).toBe(200);
    const client = await user.editor();
    clients.push(client);
    docs.push(await openText(client.doc(id)));
  }

  const next = random(SEED);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz é漢😀\n';
  for (let round = 0; round < ROUNDS; round++) {
    // Every editor edits its own view before any of them hears from the server.
    for (const doc of docs) {
      const length = textOf(doc).length;
      if (length > 0 && next() < 0.35) {
        const at = Math.floor(next() * length);
        const count = 1 + Math.floor(next() * Math.min(5, length - at));
        doc.submitOp(at > 0 ? [{ retain: at }, { delete: count }] : [{ delete: count }]);
      } else {
        const at = Math.floor(next() * (length + 1));
        const text = Array.from(
          { length: 1 + Math.floor(next() * 4) },
          () => [...alphabet][Math.floor(next() * [...alphabet].length)],
        ).join('');
        doc.submitOp(at > 0 ? [{ retain: at }, { insert: text }] : [{ insert: text }]);
      }
    }
    // Let some messages cross before the next round, a different number each round.
    const turns = Math.floor(next() * 3);
    for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
  }

  const server = async () => (await owner.http.request('GET', `/collab/documents/${id}`)).body as { version: number; text: string };
  await converged(docs, async () => (await server()).version);
  const { text } = await server();
  expect(text.length).toBeGreaterThan(0);
  for (const doc of docs) expect(textOf(doc)).toBe(text);
}, 120_000);
