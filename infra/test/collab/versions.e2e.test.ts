// A document's named versions over HTTP (docs/collab.md#versions): naming one keeps it, text and
// all, through every trim of the history; the timeline lists the named versions and the
// milestones kept; only those who may edit name versions; refusals name the field; a document
// deleted lets its names go with its history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAMED_VERSIONS } from '@eventide/contract/resources/documents/versions.ts';
import { call, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { startCollabApp, type CollabApp, type User } from './harness.ts';

const HISTORY_OPS = 10;

describe('named versions', () => {
  let app: CollabApp;
  let owner: User;
  let editor: User;
  let viewer: User;
  let stranger: User;
  beforeAll(async () => {
    app = await startCollabApp({
      env: {
        COLLAB_SNAPSHOT_EVERY_OPS: '5',
        COLLAB_SNAPSHOT_EVERY_SECONDS: '3600',
        COLLAB_HISTORY_OPS: String(HISTORY_OPS),
        COLLAB_VERSION_NAMES_PER_HOUR: '1000',
      },
    });
    [owner, editor, viewer, stranger] = await Promise.all([app.newUser(), app.newUser(), app.newUser(), app.newUser()]);
  });
  afterAll(() => app?.close());

  /** A new document of the owner's, shared with the editor and the viewer, with `words` typed one op each. */
  async function documentWith(words: string[]): Promise<string> {
    const id = (await owner.http.request('POST', '/collab/documents', { title: 'Notes' })).body.id as string;
    expect((await owner.http.request('PUT', `/collab/documents/${id}/editors/${editor.userId}`)).status).toBe(200);
    expect((await owner.http.request('PUT', `/collab/documents/${id}/viewers/${viewer.userId}`)).status).toBe(200);
    await type(id, words);
    return id;
  }
  async function type(id: string, words: string[]): Promise<void> {
    const client = await owner.editor();
    const doc = await openText(client.doc(id));
    for (const word of words) await submit(doc, textOf(doc) ? [{ retain: textOf(doc).length }, { insert: word }] : [{ insert: word }]);
    client.close();
    await app.collab.collab.history.idle();
  }

  it('keeps a named version readable after the history has been trimmed far past it', async () => {
    const id = await documentWith(['One. ', 'Two. ']);
    const named = await editor.http.request('POST', `/collab/documents/${id}/versions`, { name: '  Two words  ' });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ version: 3, name: 'Two words', by: { userId: editor.userId } });
    expect(named.headers.get('location')).toBe(`/collab/documents/${id}?version=3`);

    await type(
      id,
      Array.from({ length: HISTORY_OPS * 4 }, (_, n) => `${n} `),
    );
    const timeline = (await viewer.http.request('GET', `/collab/documents/${id}/versions`)).body;
    expect(timeline.current).toBe(3 + HISTORY_OPS * 4);
    expect(timeline.oldest).toBeGreaterThan(3);
    expect(timeline.named).toMatchObject([{ version: 3, name: 'Two words' }]);
    expect(timeline.milestones.length).toBeGreaterThan(0);
    for (const { version } of timeline.milestones) expect(version).toBeGreaterThanOrEqual(timeline.oldest);

    // The named version reads as it was; the unnamed ones as old answer where the history starts.
    expect((await viewer.http.request('GET', `/collab/documents/${id}?version=3`)).body.text).toBe('One. Two. ');
    const gone = await viewer.http.request('GET', `/collab/documents/${id}?version=4`);
    expect(gone.status).toBe(400);
    expect(gone.body.errors[0].field).toBe('version');

    // Its name taken off, the next trim lets it go.
    expect((await owner.http.request('DELETE', `/collab/documents/${id}/versions/3`)).status).toBe(204);
    expect((await owner.http.request('DELETE', `/collab/documents/${id}/versions/3`)).status).toBe(404);
    await type(
      id,
      Array.from({ length: HISTORY_OPS * 2 }, (_, n) => `${n} `),
    );
    expect((await viewer.http.request('GET', `/collab/documents/${id}?version=3`)).status).toBe(400);
  });

  it('lets only those who may edit name versions, and names the field of a bad request', async () => {
    const id = await documentWith(['Text. ']);
    const byViewer = await viewer.http.request('POST', `/collab/documents/${id}/versions`, { name: 'Mine' });
    expect(byViewer.status).toBe(403);
    expect((await stranger.http.request('POST', `/collab/documents/${id}/versions`, { name: 'Mine' })).status).toBe(404);
    expect((await stranger.http.request('GET', `/collab/documents/${id}/versions`)).status).toBe(404);
    expect((await viewer.http.request('DELETE', `/collab/documents/${id}/versions/1`)).status).toBe(403);

    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'Later', version: 99 }, 'version'],
      [{ name: 'Half', version: 1.5 }, 'version'],
      [{ name: 'Odd', colour: 'red' }, 'colour'],
    ] as const) {
      const refused = await owner.http.request('POST', `/collab/documents/${id}/versions`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // Named again, a version takes the new name.
    await owner.http.request('POST', `/collab/documents/${id}/versions`, { name: 'First', version: 1 });
    await owner.http.request('POST', `/collab/documents/${id}/versions`, { name: 'Renamed', version: 1 });
    expect((await owner.http.request('GET', `/collab/documents/${id}/versions`)).body.named).toMatchObject([
      { version: 1, name: 'Renamed' },
    ]);
  });

  it('keeps at most so many names a document, also when they are asked for at once', async () => {
    const id = await documentWith([]);
    // All but three named one after the other, each at the version it was then.
    for (let n = 0; n < MAX_NAMED_VERSIONS - 3; n++) {
      await type(id, ['w']);
      expect((await owner.http.request('POST', `/collab/documents/${id}/versions`, { name: `v${n}` })).status).toBe(201);
    }
    // Then eight more versions, named at once: three are taken.
    await type(
      id,
      Array.from({ length: 8 }, () => 'x'),
    );
    const current = (await owner.http.request('GET', `/collab/documents/${id}`)).body.version as number;
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        owner.http.request('POST', `/collab/documents/${id}/versions`, { name: `late ${n}`, version: current - n }),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = replies.find((r) => r.status !== 201)!;
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/take the name off one first/);
    expect((await owner.http.request('GET', `/collab/documents/${id}/versions`)).body.named).toHaveLength(MAX_NAMED_VERSIONS);
  });

  it('lets the names of a deleted document go with it', async () => {
    const id = await documentWith(['Soon gone. ']);
    expect((await owner.http.request('POST', `/collab/documents/${id}/versions`, { name: 'Kept?' })).status).toBe(201);
    const client = await owner.editor();
    const doc = await openText(client.doc(id));
    await call((done) => doc.del({}, done));
    // Made again under the same id: it starts with no names.
    await openText(doc);
    client.close();
    await app.collab.collab.history.idle();
    expect((await owner.http.request('GET', `/collab/documents/${id}/versions`)).body.named).toEqual([]);
  });
});

describe('names given in an hour', () => {
  let app: CollabApp;
  beforeAll(async () => {
    app = await startCollabApp({ env: { COLLAB_VERSION_NAMES_PER_HOUR: '3' } });
  });
  afterAll(() => app?.close());

  it('counts names given and taken off per user, also when asked for at once', async () => {
    const owner = await app.newUser();
    const id = (await owner.http.request('POST', '/collab/documents', { title: 'Busy' })).body.id as string;
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, n) => owner.http.request('POST', `/collab/documents/${id}/versions`, { name: `v${n}`, version: 1 })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await owner.http.request('DELETE', `/collab/documents/${id}/versions/1`)).status).toBe(429);
    // Someone else's budget is their own.
    const other = await app.newUser();
    const theirs = (await other.http.request('POST', '/collab/documents', { title: 'Theirs' })).body.id as string;
    expect((await other.http.request('POST', `/collab/documents/${theirs}/versions`, { name: 'Mine' })).status).toBe(201);
  });
});
