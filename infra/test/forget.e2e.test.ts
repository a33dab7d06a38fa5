// Deleting a user forgets them (docs/privacy.md): their key is destroyed, so what the events said
// of them reads as null everywhere, and nothing personal is left in a file of the data directory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@eventide/kernel/ids.ts';
import { until } from '@eventide/testing/wait.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { runAdmin } from './process.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

describe('deleting a user forgets them', () => {
  it('leaves their name and address nowhere: not in the answer, the events, the read model or any file', async () => {
    const name = `Zebulon Quartermaine ${newId().slice(-8)}`;
    const email = `zq-${newId().slice(-8)}@example.test`;
    const user = app.anonymous();
    const { userId } = await signUp(user, { name, email });
    await app.write('PATCH', `/users/${userId}`, { name: `${name} Jr` });
    // The search looks where the stores keep things: the id, which is not personal, is found in the log.
    const theLog = (place: string) => place.startsWith('events.db') || place === 'postgres:events';
    expect((await app.placesHolding(userId)).filter(theLog)).not.toEqual([]);
    // Sealed from the start: the log never holds it, on any engine.
    expect((await app.placesHolding(email)).filter(theLog)).toEqual([]);

    const deleted = await user.request('DELETE', `/users/${userId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ userId, name: null, email: null });
    expect(JSON.stringify(deleted.body)).not.toContain(email);

    const events = await app.eventStore.readStream(`user-${userId}`);
    expect(events.map((e) => [e.type, e.forgotten])).toEqual([
      ['user:created', true],
      ['user:updated', true],
      ['user:deleted', undefined],
    ]);
    expect(events[0]!.data).toEqual({ userId, name: null, email: null });

    const position = Number(deleted.headers.get('event-position'));
    await until(() => app.projector.position() >= position, 'the read models reached the deletion');
    const row = await app.readStore.get('users', userId);
    expect(row?.fields).toMatchObject({ status: 'deleted', name: null, email: null });

    for (const text of [name, email]) expect(await app.placesHolding(text)).toEqual([]);
  });

  it('lets a new sign-up take the address at once, and answers a second deletion plainly', async () => {
    const email = `again-${newId().slice(-8)}@example.test`;
    const first = app.anonymous();
    const { userId } = await signUp(first, { email });
    expect((await first.request('DELETE', `/users/${userId}`)).status).toBe(200);
    const again = await app.request('DELETE', `/users/${userId}`);
    expect([404, 410]).toContain(again.status);
    expect(again.headers.get('content-type')).toMatch(/problem\+json/);
    const second = app.anonymous();
    expect((await signUp(second, { email })).userId).not.toBe(userId);
  });

  it('erases from the admin command line, by address or by the id of a user deleted before, and says what it did', async () => {
    const env = app.storeEnv;
    const email = `cli-${newId().slice(-8)}@example.test`;
    const { userId } = await signUp(app.anonymous(), { name: 'Erased Byhand', email });
    const first = await runAdmin(env, 'erase', email);
    expect(first).toMatchObject({ code: 0, output: expect.stringContaining(`${userId} is erased`) });
    const [created] = await app.eventStore.readStream(`user-${userId}`);
    expect(created).toMatchObject({ forgotten: true, data: { name: null, email: null } });
    expect(await runAdmin(env, 'erase', userId)).toMatchObject({ code: 0, output: expect.stringContaining('was erased already') });
    expect(await runAdmin(env, 'erase', newId())).toMatchObject({ code: 1, output: expect.stringContaining('is no user') });
    expect((await runAdmin(env, 'erase', email)).code).toBe(1);
  });

  it('runs seal-existing from the admin command line, finding nothing in clear in a store written sealed', async () => {
    await signUp(app.anonymous(), { name: 'Sealed Already' });
    const run = await runAdmin(app.storeEnv, 'seal-existing');
    if (app.storeEnv.DATABASE_URL)
      expect(run).toMatchObject({ code: 2, output: expect.stringContaining('a PostgreSQL store is written sealed from its first event') });
    else expect(run).toMatchObject({ code: 0, output: expect.stringContaining('sealed 0 events of 0 people under their keys') });
    const refused = await runAdmin({ DATA_DIR: app.dataDir, EVENTSTORE_URL: 'esdb://localhost:1?tls=false' }, 'seal-existing');
    expect(refused).toMatchObject({ code: 2, output: expect.stringContaining('EventStoreDB keeps every event as written') });
  });

  it('forgets a user whose deletion was recorded by a process that died before it destroyed the key', async () => {
    const { userId } = await signUp(app.anonymous(), { name: 'Half Deleted' });
    expect((await app.keys.lookup([userId])).get(userId)?.state).toBe('active');
    // What DELETE writes, without the forgetting that follows it.
    const metadata = { correlationId: newId(), causationId: newId(), actor: { type: 'system' as const, name: 'test' } };
    await app.eventStore.append(`user-${userId}`, [{ id: newId(), type: 'user:deleted', data: { userId }, metadata }], {
      expectedRevision: 'any',
    });
    await until(async () => (await app.keys.lookup([userId])).get(userId)?.state === 'forgotten', 'the forgetter destroyed the key');
    const [created] = await app.eventStore.readStream(`user-${userId}`);
    expect(created).toMatchObject({ forgotten: true, data: { name: null, email: null } });
  });
});
