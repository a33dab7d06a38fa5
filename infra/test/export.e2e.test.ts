// A person downloads everything the system holds about them (docs/privacy.md#export): one JSON
// document from GET /users/{id}/export, gathered from every service, with no secret in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@eventide/kernel/ids.ts';
import { until } from '@eventide/testing/wait.ts';
import { EXPORTS_PER_HOUR } from '@eventide/contract/limits.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { loadAccount } from '@eventide/command-service/src/account/account.ts';
import { connectEditor, openText, settled, textOf } from '@eventide/testing/collab/editor-client.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp({ collab: true });
});
afterAll(() => app?.close());

/** A document owned by the client, holding `text`, written through the editor's WebSocket. */
async function documentWith(client: JsonClient, title: string, text: string): Promise<string> {
  const created = await client.request('POST', '/collab/documents', { title });
  expect(created.status).toBe(201);
  const editor = await connectEditor(app.url, client.cookieHeader());
  try {
    const doc = await openText(editor.doc(created.body.id));
    doc.submitOp([{ insert: text }]);
    await until(() => settled(doc) && textOf(doc) === text, 'the text to be saved');
  } finally {
    editor.close();
  }
  return created.body.id;
}

describe('GET /users/{id}/export', () => {
  it('gives a person their profile and its history, sign-in methods, orders and documents, and no secret', async () => {
    const product = await app.write('POST', '/products', { name: 'Exported kettle', price: { amount: 2500, currency: 'EUR' } });
    const person = app.anonymous();
    const email = `export-${newId().slice(-8)}@example.test`;
    const { userId } = await signUp(person, { name: 'Ex Porter', email });
    await person.request('PATCH', `/users/${userId}`, { name: 'Ex Porter II' });
    const order = await person.request('POST', '/orders', { userId, lines: [{ productId: product.body.productId, quantity: 2 }] });
    expect(order.status).toBe(201);
    const own = await documentWith(person, 'My diary', 'Dear diary');
    const other = app.anonymous();
    const { userId: otherId } = await signUp(other);
    const shared = await documentWith(other, 'Their plans', 'Not yours to export');
    expect((await other.request('PUT', `/collab/documents/${shared}/editors/${userId}`)).status).toBe(200);

    const reply = await person.request('GET', `/users/${userId}/export`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const exported = reply.body;
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="personal-data-${userId}.json"`);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(exported.missing).toEqual([]);
    expect(exported.profileHistory.map((e: { type: string }) => e.type)).toEqual(['user:created', 'user:updated']);
    expect(exported.profileHistory[0].data).toEqual({ userId, name: 'Ex Porter', email });
    expect(exported.signIn).toEqual({ password: true, providers: [], verifiedEmail: null, roles: [] });
    expect(exported.documents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: own, title: 'My diary', role: 'owner', text: 'Dear diary' }),
        expect.objectContaining({ id: shared, title: 'Their plans', role: 'editor' }),
      ]),
    );
    expect(exported.documents.find((d: { id: string }) => d.id === shared)).not.toHaveProperty('text');
    const { account } = await loadAccount(app.eventStore, userId);
    const text = JSON.stringify(exported);
    expect(text).not.toContain(account.passwordHash!);
    expect(text).not.toContain(otherId);

    // The read models may lag the write: the profile and orders are there once they caught up.
    await until(async () => {
      const again = (await person.request('GET', `/users/${userId}/export`)).body;
      return again.profile?.name === 'Ex Porter II' && again.orders?.length === 1;
    }, 'the profile and the order in the export');
  });

  it('is the person’s own: another user gets 404, a stranger 401, an admin any', async () => {
    const person = app.anonymous();
    const { userId } = await signUp(person);
    const other = app.anonymous();
    await signUp(other);
    const refused = await other.request('GET', `/users/${userId}/export`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    expect((await app.anonymous().request('GET', `/users/${userId}/export`)).status).toBe(401);
    expect((await app.request('GET', `/users/${userId}/export`)).status).toBe(200);
    // An admin naming something that is no user id (it would go into the file name) gets 404.
    for (const id of ['%D9%B2', 'x%22%3B%20filename%3D%22evil.html', newId().replace(/-/g, '')]) {
      const reply = await app.request('GET', `/users/${id}/export`);
      expect(reply.status, id).toBe(404);
      expect(reply.headers.get('content-disposition'), id).toBeNull();
    }
  });

  it('answers 429 once a person has asked for their allowance of exports this hour', async () => {
    const person = app.anonymous();
    const { userId } = await signUp(person);
    const statuses: number[] = [];
    for (let i = 0; i <= EXPORTS_PER_HOUR; i++) statuses.push((await person.request('GET', `/users/${userId}/export`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(EXPORTS_PER_HOUR);
    expect(statuses.at(-1)).toBe(429);
  });
});
