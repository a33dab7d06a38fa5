// "My documents" over HTTP, as the web app uses it: creating a document with a title, listing the
// ones a user owns or edits, and sharing by email or by name without telling anyone more about
// other users than they already know. The whole app, because names and emails come from the
// read models the projector keeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedIn } from '@eventide/testing/sign-in.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { startFullApp, type FullApp } from '../full-app.ts';

const LOOKUPS_PER_HOUR = 12;
let app: FullApp;

interface Person extends SignedIn {
  http: JsonClient;
  name: string;
}

let counter = 0;
async function person(name = `Person ${++counter}`, email?: string): Promise<Person> {
  const http = app.anonymous();
  const signedIn = await signUp(http, { name, ...(email ? { email } : {}) });
  // Sharing finds people in the read models: wait until the projector has them.
  await until(async () => (await app.readStore.get('users', signedIn.userId)) !== undefined, `${name} in the read models`);
  return { ...signedIn, http, name };
}

async function newDocument(owner: Person, title = 'Notes') {
  const created = await owner.http.request('POST', '/collab/documents', { title });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

beforeAll(async () => {
  app = await startFullApp({ collab: true, env: { COLLAB_SHARE_LOOKUPS_PER_HOUR: String(LOOKUPS_PER_HOUR) } });
});
afterAll(() => app?.close());

describe('my documents', () => {
  it('creates a document with a title under an id the server chooses, and lists it for its owner only', async () => {
    const [owner, other] = [await person('Olive Owner'), await person()];
    const created = await owner.http.request('POST', '/collab/documents', { title: '  Trip plans  ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Trip plans',
      role: 'owner',
      owner: { userId: owner.userId, name: 'Olive Owner' },
      version: 1,
    });
    expect(created.body.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(created.headers.get('location')).toBe(`/collab/documents/${created.body.id}`);

    const text = await owner.http.request('GET', `/collab/documents/${created.body.id}`);
    expect(text.body).toMatchObject({ version: 1, text: '' });
    const mine = await owner.http.request('GET', '/collab/documents');
    expect(mine.body.items.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
    expect((await other.http.request('GET', '/collab/documents')).body).toEqual({ items: [] });
  });

  it('lists the most recently created first, and refuses a missing or blank title naming the field', async () => {
    const owner = await person();
    const first = await newDocument(owner, 'First');
    const firstMs = Date.parse((await owner.http.request('GET', '/collab/documents')).body.items[0].modifiedAt);
    await until(() => Date.now() > firstMs, 'the clock to move past the first document');
    const second = await newDocument(owner, 'Second');
    const listed = (await owner.http.request('GET', '/collab/documents')).body.items.map((d: { id: string }) => d.id);
    expect(listed).toEqual([second, first]);
    for (const body of [{}, { title: '   ' }, { title: 'x'.repeat(201) }, { title: 'a', owner: 'someone' }]) {
      const refused = await owner.http.request('POST', '/collab/documents', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors[0].field).toMatch(/^(title|owner)$/);
    }
    expect((await owner.http.request('GET', '/collab/documents')).body.items).toHaveLength(2);
  });

  it('needs a session', async () => {
    expect((await app.anonymous().request('GET', '/collab/documents')).status).toBe(401);
    expect((await app.anonymous().request('POST', '/collab/documents', { title: 'x' })).status).toBe(401);
  });
});

describe('sharing', () => {
  it('shares by the email of an account, whatever its case; the editor sees it, by name, with no email anywhere', async () => {
    const owner = await person('Sharing Owner');
    const friend = await person('Frida Friend', `frida.${Date.now()}@example.test`);
    const id = await newDocument(owner, 'Shared notes');
    const shared = await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: ` ${friend.email.toUpperCase()} ` });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({
      owner: { userId: owner.userId, name: 'Sharing Owner' },
      editors: [{ userId: friend.userId, name: 'Frida Friend' }],
      viewers: [],
    });
    const theirs = await friend.http.request('GET', '/collab/documents');
    expect(theirs.body.items).toMatchObject([{ id, title: 'Shared notes', role: 'editor', owner: { name: 'Sharing Owner' } }]);
    const people = await friend.http.request('GET', `/collab/documents/${id}/people`);
    expect(people.body).toEqual(shared.body);
    for (const reply of [shared, theirs, people]) expect(JSON.stringify(reply.body)).not.toContain('@');

    // Twice is harmless; the editor may not share further.
    expect((await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: friend.email })).body).toEqual(shared.body);
    const third = await person();
    const refused = await friend.http.request('POST', `/collab/documents/${id}/editors`, { email: third.email });
    expect(refused.status).toBe(403);
  });

  it('shares as a viewer when the owner asks, who then lists it as a viewer; no other part can be given', async () => {
    const owner = await person('Viewing Owner');
    const reader = await person('Rita Reader', `rita.${Date.now()}@example.test`);
    const id = await newDocument(owner, 'Read me');
    const shared = await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: reader.email, role: 'viewer' });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({
      owner: { userId: owner.userId, name: 'Viewing Owner' },
      editors: [],
      viewers: [{ userId: reader.userId, name: 'Rita Reader' }],
    });
    expect((await reader.http.request('GET', '/collab/documents')).body.items).toMatchObject([{ id, role: 'viewer' }]);
    // By name, among the people the owner shares with, and as an editor this time.
    const promoted = await owner.http.request('POST', `/collab/documents/${id}/editors`, { name: 'rita reader', role: 'editor' });
    expect(promoted.body).toMatchObject({ editors: [{ userId: reader.userId }], viewers: [] });
    const bad = await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: reader.email, role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('role');
  });

  it('says plainly when no account has the email, and a stranger cannot even see the document', async () => {
    const owner = await person();
    const id = await newDocument(owner);
    const unknown = await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: 'nobody-here@example.test' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'email', message: expect.stringContaining('no account has this email') }]);
    const self = await owner.http.request('POST', `/collab/documents/${id}/editors`, { email: owner.email });
    expect(self.status).toBe(422);

    const stranger = await person();
    for (const [method, path, body] of [
      ['GET', `/collab/documents/${id}/people`],
      ['POST', `/collab/documents/${id}/editors`, { email: stranger.email }],
    ] as const) {
      const hidden = await stranger.http.request(method, path, body);
      expect(hidden.status, `${method} ${path}`).toBe(404);
    }
  });

  it('shares by name only with people the owner already shares a document with, and asks for an email when a name is not enough', async () => {
    const owner = await person();
    const colleague = await person('Casey Colleague');
    const namesake = await person('Casey Colleague');
    const first = await newDocument(owner, 'First');
    await owner.http.request('POST', `/collab/documents/${first}/editors`, { email: colleague.email });
    const second = await newDocument(owner, 'Second');

    // The namesake has the same name but shares nothing with the owner: not found, not a guess.
    const byName = await owner.http.request('POST', `/collab/documents/${second}/editors`, { name: 'casey colleague' });
    expect(byName.status).toBe(200);
    expect(byName.body.editors).toEqual([{ userId: colleague.userId, name: 'Casey Colleague' }]);

    const stranger = await owner.http.request('POST', `/collab/documents/${second}/editors`, { name: 'Nobody Known' });
    expect(stranger.status).toBe(422);
    expect(stranger.body.errors[0]).toMatchObject({ field: 'name', message: expect.stringContaining('share by email the first time') });

    // Once both Caseys share a document with the owner, the name is ambiguous.
    await owner.http.request('POST', `/collab/documents/${first}/editors`, { email: namesake.email });
    const third = await newDocument(owner, 'Third');
    const ambiguous = await owner.http.request('POST', `/collab/documents/${third}/editors`, { name: 'Casey Colleague' });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.errors[0].message).toContain('2 people');
  });

  it('takes exactly one of email and name, and names the field', async () => {
    const owner = await person();
    const id = await newDocument(owner);
    for (const body of [{}, { email: 'a@example.test', name: 'A' }, { email: 'not an email' }, { userId: owner.userId }]) {
      const refused = await owner.http.request('POST', `/collab/documents/${id}/editors`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('limits how many people one user may look up, even all at once', async () => {
    const prober = await person();
    const id = await newDocument(prober);
    const replies = await Promise.all(
      Array.from({ length: LOOKUPS_PER_HOUR + 8 }, (_, i) =>
        prober.http.request('POST', `/collab/documents/${id}/editors`, { email: `probe-${i}@example.test` }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 422)).toHaveLength(LOOKUPS_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    expect(replies.find((r) => r.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another user's lookups are their own.
    const other = await person();
    const otherDoc = await newDocument(other);
    expect((await other.http.request('POST', `/collab/documents/${otherDoc}/editors`, { email: prober.email })).status).toBe(200);
  });
});
