// Presence: a cursor moves with concurrent edits, and disappears when its editor leaves, even
// when the editor's network dies without a goodbye.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { startCollabApp, type CollabApp } from './harness.ts';
import { call, converged, openText, submit, textOf, type Doc } from '@eventide/testing/collab/editor-client.ts';

let app: CollabApp;
beforeAll(async () => {
  app = await startCollabApp();
});
afterAll(() => app.close());

it('moves a cursor with concurrent edits, and withdraws it when its editor vanishes', async () => {
  const alice = await app.newUser();
  const bob = await app.newUser();
  const id = 'presence';
  const aliceClient = await alice.editor();
  const aliceDoc = await openText(aliceClient.doc(id));
  await submit(aliceDoc, [{ insert: 'hello world' }]);
  await alice.http.request('PUT', `/collab/documents/${id}/editors/${bob.userId}`);
  const bobClient = await bob.editor();
  const bobDoc = await openText(bobClient.doc(id));

  const alicePresence = aliceClient.connection.getDocPresence('documents', id);
  await call((done) => alicePresence.subscribe(done));
  const bobPresence = bobClient.connection.getDocPresence('documents', id);
  await call((done) => bobPresence.subscribe(done));
  const bobCursor = bobPresence.create('bobs-cursor');
  await call((done) => bobCursor.submit({ index: 6, length: 5 }, done)); // "world" selected

  const seenByAlice = () => alicePresence.remotePresences['bobs-cursor'] as { index: number; length: number; user: string } | undefined;
  await until(() => seenByAlice()?.index === 6, "Bob's cursor at Alice's");
  expect(seenByAlice()).toEqual({ index: 6, length: 5, user: bob.userId });

  // Alice types before Bob's selection: it moves right and still covers "world".
  await submit(aliceDoc, [{ insert: 'big ' }]);
  await converged([aliceDoc, bobDoc] as Doc[], async () => aliceDoc.version!);
  expect(textOf(aliceDoc)).toBe('big hello world');
  expect(seenByAlice()).toMatchObject({ index: 10, length: 5 });
  expect(textOf(aliceDoc).slice(10, 15)).toBe('world');

  // Bob's network dies: no goodbye reaches the server.
  bobClient.socket.terminate();
  await until(() => seenByAlice() === undefined, "Bob's cursor to disappear at Alice's");
  aliceClient.close();
});
