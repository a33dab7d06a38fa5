// The split topology on one PostgreSQL: every process (command, projector, query, site, collab)
// on DATABASE_URL, each on a data directory of its own as on hosts of its own, behind the front
// door. What one process writes, the others read and act on: a session the command process opened
// is honoured by the query and collab processes, a write is read and searched through the door, a
// document is edited over the door's WebSocket, and the site exports it all. And no process left a
// file in its data directory: they share the database and nothing else.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { connectEditor, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { NGINX_MISSING, nginxAvailable, startSplitSite, type SplitSite } from './front-door.ts';

const noPostgres = postgresUnavailable();
const why = noPostgres ?? (nginxAvailable ? undefined : NGINX_MISSING);
if (why) console.warn(`SKIPPED: the split topology on PostgreSQL: ${why}`);

describe.skipIf(why)('the split processes behind the front door, on one PostgreSQL', { timeout: 120_000 }, () => {
  let postgres: TestPostgres;
  let split: SplitSite;
  beforeAll(async () => {
    postgres = await startPostgres();
    split = await startSplitSite({ env: { DATABASE_URL: await postgres.database() }, ownDataDirs: true });
  }, 300_000);
  afterAll(async () => {
    await split?.stop();
    await postgres?.remove();
  });

  it('signs up through the command process and reads, searches and edits through the others', async () => {
    const person = jsonClient(split.url);
    const signedUp = await person.request('POST', '/users', { name: 'Ada Split', email: 'ada@example.com', password: 'a long passphrase' });
    expect(signedUp.status).toBe(201);
    const position = signedUp.headers.get('event-position')!;
    // The query process honours the session the command process signed, with the secret they share in the database.
    const read = await person.request('GET', `/users/${signedUp.body.userId}`, undefined, { 'Wait-For-Position': position });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ name: 'Ada Split', email: 'ada@example.com' });
    expect((await person.request('GET', '/auth/session')).status).toBe(200);

    // Cursor paging of the user's history, read from the event store on PostgreSQL.
    const renamed = await person.request('PATCH', `/users/${signedUp.body.userId}`, { name: 'Ada Renamed' });
    expect(renamed.status).toBe(200);
    const history = `/users/${signedUp.body.userId}/history?limit=1`;
    const newest = await person.request('GET', history);
    expect(newest.body.items).toEqual([expect.objectContaining({ revision: 1 })]);
    const older = await person.request('GET', `${history}&cursor=${encodeURIComponent(newest.body.nextCursor)}`);
    expect(older.body).toMatchObject({ items: [expect.objectContaining({ revision: 0 })], nextCursor: null });

    // Product search runs on PostgreSQL's indexes (an empty catalogue: only admins add products).
    const searched = await person.request('GET', '/search?q=kettle');
    expect(searched.status).toBe(200);

    const created = await person.request('POST', '/collab/documents', { title: 'Plans' });
    expect(created.status).toBe(201);
    const editor = await connectEditor(split.url, person.cookieHeader());
    try {
      const doc = await openText(editor.doc(created.body.id));
      await submit(doc, [{ insert: 'kept in PostgreSQL' }]);
      expect(textOf(doc)).toBe('kept in PostgreSQL');
    } finally {
      editor.close();
    }

    const exported = await person.request('GET', `/users/${signedUp.body.userId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.missing).toEqual([]);
    expect(exported.body.documents).toEqual([expect.objectContaining({ id: created.body.id, title: 'Plans', text: 'kept in PostgreSQL' })]);
  });

  it('leaves no file in any process’s data directory', () => {
    // The site's own, unused here, and one for each of the five processes.
    expect(split.dataDirs).toHaveLength(6);
    expect(Object.fromEntries(split.dataDirs.map((dir) => [dir, readdirSync(dir)]))).toEqual(
      Object.fromEntries(split.dataDirs.map((dir) => [dir, []])),
    );
  });
});
