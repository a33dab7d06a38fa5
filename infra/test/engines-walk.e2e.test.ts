// A short walk through a running site, from outside, as the compose file's `contracts` profile
// runs it against the real engines (`npm run test:engines`, docs/operations.md#real-engines):
// sign up, become an admin, make a product, read and find it, order it, edit a document. It needs
// the site's address (EVENTIDE_URL) and the same store settings as the site (MONGO_URL, or
// DATA_DIR on the embedded stores), with which it runs `npm run admin`.
import { describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { connectEditor, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { grantAdmin } from './process.ts';

const SITE = process.env.EVENTIDE_URL;
if (!SITE) console.warn('SKIPPED: the walk through a running site needs its address in EVENTIDE_URL (npm run test:engines sets it)');

describe.skipIf(!SITE)('a walk through the site at EVENTIDE_URL', { timeout: 120_000 }, () => {
  it('signs up, makes and finds a product, orders it and edits a document', async () => {
    const run = Date.now().toString(36);
    const admin = jsonClient(SITE!);
    const credentials = { email: `walker-${run}@example.com`, password: 'a long passphrase' };
    const signedUp = await admin.request('POST', '/users', { name: 'Walker', ...credentials });
    expect(signedUp.status).toBe(201);
    await grantAdmin({}, credentials.email);
    expect((await admin.request('POST', '/auth/sign-in', credentials)).status).toBe(200);

    const name = `Walking stick ${run}`;
    const made = await admin.request('POST', '/products', {
      name,
      description: 'Ash, with a brass ferrule.',
      price: { amount: 4500, currency: 'EUR' },
      category: 'Outdoors',
    });
    expect(made.status).toBe(201);
    const position = { 'Wait-For-Position': made.headers.get('event-position')!, Prefer: 'wait=10' };
    const read = await admin.request('GET', `/products/${made.body.productId}`, undefined, position);
    expect(read.body).toMatchObject({ name });
    const found = await admin.request('GET', `/search?q=${encodeURIComponent(run)}`, undefined, position);
    expect(found.body.items.map((item: { productId: string }) => item.productId)).toContain(made.body.productId);

    const order = await admin.request('POST', '/orders', {
      userId: signedUp.body.userId,
      lines: [{ productId: made.body.productId, quantity: 2 }],
    });
    expect(order.status).toBe(201);

    const editor = await connectEditor(SITE!, admin.cookieHeader());
    try {
      const doc = await openText(editor.doc(`walk-${run}`));
      await submit(doc, [{ insert: 'written through the front door' }]);
      expect(textOf(doc)).toBe('written through the front door');
    } finally {
      editor.close();
    }
  });
});
