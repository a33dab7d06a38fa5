// Ending access ends editing at once: a signed-out session, a password changed elsewhere, a
// deleted user, a changed role and a removed editor each close their WebSockets before the
// request that ended them has answered, and nothing sent afterwards is applied. The periodic
// session check is set to an hour here, so only the revocation can close them in time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAdmin } from '@eventide/command-service/src/testing/admin.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { openText, submit } from '@eventide/testing/collab/editor-client.ts';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { startCollabApp, type CollabApp, type User } from './harness.ts';

let app: CollabApp;
let admin: User;
const sockets: { close(): void }[] = [];

beforeAll(async () => {
  app = await startCollabApp({ checkEveryMs: 3_600_000 });
  admin = await app.newAdmin();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
});

let docs = 0;
/** A document the user owns, with some text, and a raw connection subscribed to it. */
async function editing(user: User): Promise<{ client: RawClient; doc: string; version: number }> {
  const doc = `revocation-${++docs}`;
  const editor = await user.editor();
  sockets.push(editor);
  const opened = await openText(editor.doc(doc));
  await submit(opened, [{ insert: 'before' }]);
  const client = await rawClient(app.url, user.http.cookieHeader());
  sockets.push({ close: () => client.socket.close() });
  const from = client.inbox.length;
  client.send({ a: 's', c: 'documents', d: doc });
  const subscribed = await client.reply((m) => m.a === 's' && m.d === doc, 'the subscription', from);
  editor.close();
  return { client, doc, version: subscribed.data.v as number };
}

const closedWith = async (client: RawClient) => {
  await until(() => client.closed !== undefined, 'the connection to close');
  return client.closed!.code;
};

const serverText = async (doc: string) =>
  (await admin.http.request('GET', `/collab/documents/${doc}`)).body as { version: number; text: string };

describe('ending a session ends its connections at once', () => {
  it('signing out: the connection is closing before the sign-out answers, and an op sent after it is never applied', async () => {
    const user = await app.newUser();
    const { client, doc, version } = await editing(user);
    expect((await user.http.request('POST', '/auth/sign-out')).status).toBe(204);
    const from = client.inbox.length;
    client.send({ a: 'op', c: 'documents', d: doc, v: version, src: client.id, seq: 1, op: [{ insert: 'after ' }] });
    expect(await closedWith(client)).toBe(4401);
    expect(client.inbox.slice(from).some((m) => m.a === 'op' && m.seq === 1 && !m.error)).toBe(false);
    expect(await serverText(doc)).toMatchObject({ version, text: 'before' });
  });

  it('a password changed in another browser ends this one’s connections', async () => {
    const user = await app.newUser();
    const { client } = await editing(user);
    const elsewhere = jsonClient(app.url);
    await elsewhere.request('POST', '/auth/sign-in', { email: user.email, password: user.password });
    expect(
      (await elsewhere.request('PUT', '/auth/password', { currentPassword: user.password, password: 'a brand new passphrase' })).status,
    ).toBe(204);
    expect(await closedWith(client)).toBe(4401);
  });

  it('a deleted user’s connections end', async () => {
    const user = await app.newUser();
    const { client } = await editing(user);
    expect((await admin.http.request('DELETE', `/users/${user.userId}`)).status).toBe(200);
    expect(await closedWith(client)).toBe(4401);
  });

  it('a changed role ends the user’s connections (their next sign-in carries it)', async () => {
    const user = await app.newUser();
    const { client } = await editing(user);
    await grantAdmin(app.eventStore, app.auth.sessions.store, user.userId);
    expect(await closedWith(client)).toBe(4401);
  });

  it('leaves the connections of other sessions and other users open', async () => {
    const user = await app.newUser();
    const bystander = await app.newUser();
    const { client: mine } = await editing(user);
    const { client: theirs } = await editing(bystander);
    const second = jsonClient(app.url);
    await second.request('POST', '/auth/sign-in', { email: user.email, password: user.password });
    const other = await rawClient(app.url, second.cookieHeader());
    sockets.push({ close: () => other.socket.close() });
    await user.http.request('POST', '/auth/sign-out');
    expect(await closedWith(mine)).toBe(4401);
    // A round trip on each survivor shows it is still served.
    for (const survivor of [other, theirs]) {
      const from = survivor.inbox.length;
      survivor.send({ a: 'pp' });
      await survivor.reply((m) => m.a === 'pp', 'a ping answered', from);
      expect(survivor.closed).toBeUndefined();
    }
  });
});

describe('withdrawing a document ends its editors’ connections at once', () => {
  it('closes a removed editor with 4403 without waiting for the next op', async () => {
    const owner = await app.newUser();
    const removed = await app.newUser();
    const { doc } = await editing(owner);
    await owner.http.request('PUT', `/collab/documents/${doc}/editors/${removed.userId}`);
    const client = await rawClient(app.url, removed.http.cookieHeader());
    sockets.push({ close: () => client.socket.close() });
    client.send({ a: 's', c: 'documents', d: doc });
    await client.reply((m) => m.a === 's' && m.d === doc && !m.error, 'the editor’s subscription');
    expect((await owner.http.request('DELETE', `/collab/documents/${doc}/editors/${removed.userId}`)).status).toBe(200);
    expect(await closedWith(client)).toBe(4403);
  });
});
