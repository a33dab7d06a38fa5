// Who may connect, and what each action a connected client can take is allowed to do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { startCollabApp, type CollabApp, type User } from './harness.ts';
import { openSocket, openText, submit, textOf, type EditorClient } from '@eventide/testing/collab/editor-client.ts';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';

let app: CollabApp;
let owner: User;
let stranger: User;
let ownerEditor: EditorClient;
const DOC = 'owners-notes';
const TEXT = 'http://sharejs.org/types/rich-text/v1';
const open: { close(): void }[] = [];

beforeAll(async () => {
  app = await startCollabApp({ env: { COLLAB_MAX_MESSAGE_BYTES: '4096', COLLAB_MAX_CATCH_UP_OPS: '5' }, checkEveryMs: 100 });
  owner = await app.newUser();
  stranger = await app.newUser();
  ownerEditor = await owner.editor();
  open.push(ownerEditor);
  const doc = await openText(ownerEditor.doc(DOC));
  for (const word of ['one ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven ']) {
    const end = textOf(doc).length;
    await submit(doc, end > 0 ? [{ retain: end }, { insert: word }] : [{ insert: word }]);
  }
});
afterAll(async () => {
  for (const client of open) client.close();
  await app.close();
});

async function raw(user: User, handshakeId?: string): Promise<RawClient> {
  const client = await rawClient(app.url, user.http.cookieHeader(), handshakeId);
  open.push({ close: () => client.socket.close() });
  return client;
}

const errorOf = async (client: RawClient, message: Record<string, unknown>, match: (m: Record<string, any>) => boolean) => {
  const from = client.inbox.length;
  client.send(message);
  return (await client.reply((m) => match(m) && m.error, `an error for ${JSON.stringify(message)}`, from)).error as {
    code: string;
    message: string;
  };
};

describe('the upgrade', () => {
  it('needs a session: 401 problem+json without one', async () => {
    const refused = (await openSocket(app.url, '').catch((error) => error)) as { status: number; body: string };
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ type: '/problems/unauthenticated', status: 401 });
  });

  it('refuses a forged cookie and a page of another origin', async () => {
    expect(((await openSocket(app.url, 'eventide.sid=forged; eventide.sid.sig=forged').catch((e) => e)) as { status: number }).status).toBe(
      401,
    );
    const foreign = (await openSocket(app.url, owner.http.cookieHeader(), 'https://evil.example').catch((e) => e)) as {
      status: number;
      body: string;
    };
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).detail).toContain('https://evil.example');
    await expect(openSocket(app.url, owner.http.cookieHeader(), app.url)).resolves.toBeTruthy();
  });
});

describe('a client who may not open the document', () => {
  let client: RawClient;
  beforeAll(async () => {
    client = await raw(stranger);
  });

  it('cannot fetch, subscribe, read ops from version 0, or read old versions', async () => {
    const forbidden = (m: Record<string, any>) => m.error?.code === 'ERR_FORBIDDEN';
    for (const message of [
      { a: 'f', c: 'documents', d: DOC },
      { a: 's', c: 'documents', d: DOC },
      { a: 'f', c: 'documents', d: DOC, v: 0 },
      { a: 's', c: 'documents', d: DOC, v: 0 },
      { a: 'bs', c: 'documents', b: { [DOC]: 0 } },
      { a: 'nf', c: 'documents', d: DOC, v: 2, id: 1 },
      { a: 'nt', c: 'documents', d: DOC, ts: Date.now(), id: 2 },
      { a: 'ps', ch: `documents.${DOC}`, seq: 1 },
    ]) {
      expect((await errorOf(client, message, () => true)).code, JSON.stringify(message)).toBe('ERR_FORBIDDEN');
    }
    expect(client.inbox.filter((m) => m.data || m.op || m.create)).toEqual([]);
    expect(client.inbox.some(forbidden)).toBe(true);
  });

  it('cannot submit, delete, take over by creating, or send presence on it', async () => {
    expect(
      (await errorOf(client, { a: 'op', c: 'documents', d: DOC, v: 8, seq: 1, op: [{ insert: 'x' }] }, (m) => m.a === 'op')).code,
    ).toBe('ERR_FORBIDDEN');
    expect((await errorOf(client, { a: 'op', c: 'documents', d: DOC, v: 8, seq: 2, del: true }, (m) => m.a === 'op')).code).toBe(
      'ERR_FORBIDDEN',
    );
    const create = await errorOf(
      client,
      { a: 'op', c: 'documents', d: DOC, v: null, seq: 3, create: { type: 'rich-text', data: [] } },
      (m) => m.a === 'op',
    );
    expect(['ERR_FORBIDDEN', 'ERR_DOC_ALREADY_CREATED']).toContain(create.code);
    expect(
      (
        await errorOf(
          client,
          { a: 'p', ch: `documents.${DOC}`, c: 'documents', d: DOC, id: 'x', p: { index: 0, length: 0 }, pv: 1, v: 8, t: TEXT },
          (m) => m.a === 'p',
        )
      ).code,
    ).toBe('ERR_FORBIDDEN');
  });

  it('gets 404 for the document over HTTP, like a missing one', async () => {
    expect((await stranger.http.request('GET', `/collab/documents/${DOC}`)).status).toBe(404);
    expect((await stranger.http.request('GET', `/collab/documents/${DOC}/access`)).status).toBe(404);
    expect((await stranger.http.request('PUT', `/collab/documents/${DOC}/editors/${stranger.userId}`)).status).toBe(404);
  });

  it('cannot name the access records or run queries', async () => {
    expect((await errorOf(client, { a: 'f', c: 'collab_access', d: DOC }, (m) => m.a === 'f')).code).toBe('ERR_UNKNOWN_COLLECTION');
    expect((await errorOf(client, { a: 'qf', c: 'documents', id: 7, q: {} }, (m) => m.a === 'qf')).code).toBe('ERR_FORBIDDEN');
    expect((await errorOf(client, { a: 'qf', c: 'collab_access', id: 8, q: {} }, (m) => m.a === 'qf')).code).toBe('ERR_UNKNOWN_COLLECTION');
  });
});

describe('spoofing', () => {
  it("cannot take another client's id, submit under it, or move its cursor", async () => {
    const editor = await app.newUser();
    await owner.http.request('PUT', `/collab/documents/${DOC}/editors/${editor.userId}`);
    const victim = await raw(owner);
    victim.send({
      a: 'p',
      ch: `documents.${DOC}`,
      c: 'documents',
      d: DOC,
      id: 'victims-cursor',
      p: { index: 1, length: 0 },
      pv: 1,
      v: 7,
      t: TEXT,
    });
    await victim.reply((m) => m.a === 'p' && !m.error, 'the presence ack');

    const attacker = await raw(editor, victim.id);
    expect(attacker.id).not.toBe(victim.id);
    expect(
      (
        await errorOf(
          attacker,
          { a: 'op', c: 'documents', d: DOC, v: 7, src: victim.id, seq: 1, op: [{ insert: 'x' }] },
          (m) => m.a === 'op',
        )
      ).code,
    ).toBe('ERR_SPOOFED_SOURCE');
    const presence = {
      a: 'p',
      ch: `documents.${DOC}`,
      c: 'documents',
      d: DOC,
      id: 'victims-cursor',
      p: { index: 0, length: 3 },
      pv: 9,
      v: 7,
      t: TEXT,
    };
    expect((await errorOf(attacker, presence, (m) => m.a === 'p')).code).toBe('ERR_PRESENCE_TAKEN');
  });

  it('labels cursors with the user the server knows, whatever the client claims', async () => {
    const editor = await app.newUser();
    await owner.http.request('PUT', `/collab/documents/${DOC}/editors/${editor.userId}`);
    const watcher = await raw(owner);
    watcher.send({ a: 'ps', ch: `documents.${DOC}`, seq: 1 });
    await watcher.reply((m) => m.a === 'ps', 'the presence subscription');
    const liar = await raw(editor);
    liar.send({
      a: 'p',
      ch: `documents.${DOC}`,
      c: 'documents',
      d: DOC,
      id: 'liar',
      p: { index: 2, length: 1, user: owner.userId, html: '<b>' },
      pv: 1,
      v: 7,
      t: TEXT,
    });
    const seen = await watcher.reply((m) => m.a === 'p' && m.id === 'liar', 'the liar’s cursor');
    expect(seen.p).toEqual({ index: 2, length: 1, user: editor.userId });
  });
});

describe('document ids', () => {
  it('are 1 to 100 letters, digits, "-" or "_"', async () => {
    const client = await raw(owner);
    expect((await errorOf(client, { a: 's', c: 'documents', d: 'no spaces here' }, (m) => m.a === 's')).code).toBe('ERR_BAD_ID');
    expect(
      (
        await errorOf(
          client,
          { a: 'op', c: 'documents', d: 'a.b', v: null, seq: 1, create: { type: 'rich-text', data: [] } },
          (m) => m.a === 'op',
        )
      ).code,
    ).toBe('ERR_BAD_ID');
    expect(
      (
        await errorOf(
          client,
          { a: 'p', ch: 'documents.x'.padEnd(120, 'x'), c: 'documents', d: 'x'.repeat(101), id: 'p', p: null, pv: 1 },
          (m) => m.a === 'p',
        )
      ).code,
    ).toBe('ERR_BAD_ID');
  });
});

describe('ops', () => {
  it('are plain text only: attributes and embeds are refused', async () => {
    const client = await raw(owner);
    expect(
      (
        await errorOf(
          client,
          { a: 'op', c: 'documents', d: DOC, v: 7, seq: 1, op: [{ insert: 'x', attributes: { bold: true } }] },
          (m) => m.a === 'op',
        )
      ).code,
    ).toBe('ERR_BAD_OP');
    expect(
      (await errorOf(client, { a: 'op', c: 'documents', d: DOC, v: 7, seq: 2, op: [{ insert: { image: 'x' } }] }, (m) => m.a === 'op'))
        .code,
    ).toBe('ERR_BAD_OP');
    expect(
      (
        await errorOf(
          client,
          { a: 'op', c: 'documents', d: 'other', v: null, seq: 3, create: { type: 'json0', data: {} } },
          (m) => m.a === 'op',
        )
      ).code,
    ).toBe('ERR_BAD_OP');
  });
});

describe('limits', () => {
  it('closes a connection whose message is over the size limit (1009)', async () => {
    const client = await raw(owner);
    client.send({ a: 'op', c: 'documents', d: DOC, v: 7, seq: 1, op: [{ insert: 'x'.repeat(5000) }] });
    await until(() => client.closed !== undefined, 'the close');
    expect(client.closed!.code).toBe(1009);
  });

  it('tells a client too far behind to reload instead of replaying', async () => {
    const client = await raw(owner);
    expect((await errorOf(client, { a: 's', c: 'documents', d: DOC, v: 1 }, (m) => m.a === 's')).code).toBe('ERR_TOO_FAR_BEHIND');
    const fresh = await (async () => {
      const from = client.inbox.length;
      client.send({ a: 's', c: 'documents', d: DOC });
      return client.reply((m) => m.a === 's', 'a fresh subscription', from);
    })();
    expect(fresh.error).toBeUndefined();
    expect(fresh.data.v).toBe(8);
  });
});

describe('withdrawing access', () => {
  it('disconnects an editor who is removed (4403) and one who signs out (4401)', async () => {
    const removed = await app.newUser();
    await owner.http.request('PUT', `/collab/documents/${DOC}/editors/${removed.userId}`);
    const removedEditor = await removed.editor();
    open.push(removedEditor);
    await openText(removedEditor.doc(DOC));
    const closedWith = new Promise<number>((resolve) => removedEditor.socket.once('close', (code) => resolve(code)));
    expect((await owner.http.request('DELETE', `/collab/documents/${DOC}/editors/${removed.userId}`)).body.editors).not.toContain(
      removed.userId,
    );
    // The next op on the document reaches the removed editor's subscription, and ends it.
    await until(async () => {
      const doc = ownerEditor.doc(DOC);
      await submit(doc, [{ insert: '.' }]);
      return removedEditor.socket.readyState !== removedEditor.socket.OPEN;
    }, 'the removed editor to be disconnected');
    expect(await closedWith).toBe(4403);

    const leaving = await app.newUser();
    const client = await raw(leaving);
    await leaving.http.request('POST', '/auth/sign-out');
    await until(() => client.closed !== undefined, 'the signed-out connection to close');
    expect(client.closed!.code).toBe(4401);
  });
});

/** A step that must be done within `ms`: a failure names it, instead of the test's timeout naming nothing. */
function bounded<T>(what: string, step: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

describe('a viewer', () => {
  it('reads and follows the document and shows a cursor, but a forged op is refused and the socket stays usable', async () => {
    const viewer = await bounded('signing the viewer up', app.newUser());
    const shared = await bounded('sharing as a viewer', owner.http.request('PUT', `/collab/documents/${DOC}/viewers/${viewer.userId}`));
    expect(shared.status).toBe(200);
    expect(shared.body.viewers).toEqual([viewer.userId]);
    const client = await bounded('the viewer’s connection', raw(viewer));
    client.send({ a: 's', c: 'documents', d: DOC });
    const fetched = await client.reply((m) => m.a === 's' && m.data, 'the subscription');
    const version = fetched.data.v as number;
    const refused = await errorOf(
      client,
      { a: 'op', c: 'documents', d: DOC, v: version, seq: 1, op: [{ insert: 'x' }] },
      (m) => m.a === 'op',
    );
    expect(refused.code).toBe('ERR_READ_ONLY');
    expect(refused.message).toContain('viewer');
    // Deleting is the owner's, whoever else asks.
    expect((await errorOf(client, { a: 'op', c: 'documents', d: DOC, v: version, seq: 2, del: true }, (m) => m.a === 'op')).code).toBe(
      'ERR_FORBIDDEN',
    );
    // Still connected and subscribed: the owner's next edit reaches the viewer.
    const doc = ownerEditor.doc(DOC);
    const from = client.inbox.length;
    await bounded('the owner’s edit', submit(doc, [{ insert: 'seen by the viewer ' }]));
    const op = await client.reply((m) => m.a === 'op' && m.op, 'the owner’s op', from);
    expect(JSON.stringify(op.op)).toContain('seen by the viewer');
    expect(client.closed).toBeUndefined();
    // Over HTTP the viewer reads the text and the people, and may share nothing.
    expect((await viewer.http.request('GET', `/collab/documents/${DOC}`)).status).toBe(200);
    expect((await viewer.http.request('GET', `/collab/documents/${DOC}/people`)).body.viewers).toEqual([
      expect.objectContaining({ userId: viewer.userId }),
    ]);
    expect((await viewer.http.request('PUT', `/collab/documents/${DOC}/viewers/${stranger.userId}`)).status).toBe(403);
    const listed = await viewer.http.request('GET', '/collab/documents');
    expect(listed.body.items.find((d: { id: string }) => d.id === DOC)).toMatchObject({ role: 'viewer' });
  });

  it('becomes an editor and back, and every process forgets the old part at once', async () => {
    const person = await app.newUser();
    await owner.http.request('PUT', `/collab/documents/${DOC}/viewers/${person.userId}`);
    const editor = await person.editor();
    open.push(editor);
    const doc = await openText(editor.doc(DOC));
    await expect(submit(doc, [{ insert: 'x' }])).rejects.toMatchObject({ code: 'ERR_READ_ONLY' });
    const promoted = await owner.http.request('PUT', `/collab/documents/${DOC}/editors/${person.userId}`);
    expect(promoted.body).toMatchObject({
      editors: expect.arrayContaining([person.userId]),
      viewers: expect.not.arrayContaining([person.userId]),
    });
    const fresh = await openText((await person.editor()).doc(DOC));
    await submit(fresh, [{ insert: 'an editor now ' }]);
    const demoted = await owner.http.request('PUT', `/collab/documents/${DOC}/viewers/${person.userId}`);
    expect(demoted.body.editors).not.toContain(person.userId);
    await expect(submit(fresh, [{ insert: 'y' }])).rejects.toMatchObject({ code: 'ERR_READ_ONLY' });
    // DELETE on the part they do not have changes nothing; on the one they have, ends their access.
    expect((await owner.http.request('DELETE', `/collab/documents/${DOC}/editors/${person.userId}`)).body.viewers).toContain(person.userId);
    expect((await owner.http.request('DELETE', `/collab/documents/${DOC}/viewers/${person.userId}`)).body.viewers).not.toContain(
      person.userId,
    );
    expect((await person.http.request('GET', `/collab/documents/${DOC}`)).status).toBe(404);
  });
});
