// Who may call each route, generated from the route table: every route of every service, at every
// path a version serves it, is asked by the callers its access level must refuse, and refuses
// them. A new route is covered by being declared; a new kind of thing a path can name needs a
// fixture below (the test fails naming it until it has one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '@eventide/contract/operations.ts';
import { API_ROUTES, type ApiRoute } from '@eventide/contract/routes.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
let owner: JsonClient;
let stranger: JsonClient;
/** What each kind of path parameter names: the owner's user, order and document, and so on. */
let names: Record<string, string>;

beforeAll(async () => {
  app = await startFullApp({ collab: true });
  owner = app.anonymous();
  const { userId } = await signUp(owner);
  stranger = app.anonymous();
  const other = await signUp(stranger);
  const product = await app.write('POST', '/products', { name: 'Kettle', price: { amount: 100, currency: 'EUR' } });
  const order = await owner.request('POST', '/orders', { userId, lines: [{ productId: product.body.productId, quantity: 1 }] });
  const document = await owner.request('POST', '/collab/documents', { title: 'Notes' });
  const webhook = await app.request('POST', '/admin/webhooks', { url: 'https://[2606:4700:4700::1111]/hooks', events: ['order:created'] });
  expect(webhook.status).toBe(201);
  // Paused at once: nothing is ever sent to the address it names.
  expect((await app.request('PATCH', `/admin/webhooks/${webhook.body.webhookId}`, { enabled: false })).status).toBe(200);
  expect([order.status, document.status]).toEqual([201, 201]);
  // Reads of what was just written wait for the read models to include it.
  await app.request('GET', `/orders/${order.body.orderId}`, undefined, {
    'Wait-For-Position': String(order.headers.get('event-position')),
  });
  names = {
    user: userId,
    order: order.body.orderId,
    product: product.body.productId,
    document: document.body.id,
    'identity provider': 'github',
    editor: other.userId,
    'named version': '1',
    stream: `product-${product.body.productId}`,
    'webhook endpoint': webhook.body.webhookId,
    delivery: '00000000-0000-4000-8000-000000000000',
  };
});
afterAll(() => app?.close());

/** Ids of the same kinds that name nothing. */
const NOTHING: Record<string, string> = {
  user: '00000000-0000-4000-8000-000000000000',
  order: '00000000-0000-4000-8000-000000000000',
  document: 'no-such-document',
};

/** The route's path with the fixtures in it (the owner's things, the stranger as the editor to add), or with ids that name nothing. */
function pathOf(route: ApiRoute, fixtures: Record<string, string> = names): string {
  return route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const parameter = route.shape.params?.[param];
    const kind = param === 'userId' ? 'editor' : parameter?.names;
    const value = kind === undefined ? undefined : (fixtures[kind] ?? names[kind]);
    if (value === undefined) throw new Error(`${route.operationId}: no fixture for {${param}} (${kind}); add one to this test`);
    return value;
  });
}

const send = (client: Pick<JsonClient, 'request'>, route: ApiRoute, path = pathOf(route)) =>
  client.request(route.method.toUpperCase(), path, route.method === 'get' ? undefined : {});

/** The refusals each access level owes: who, and the answer (status and problem type). */
const REFUSALS: Record<Access, Array<{ who: 'anonymous' | 'stranger'; status: number; type: string }>> = {
  public: [],
  'signed-out': [{ who: 'stranger', status: 403, type: '/problems/forbidden' }],
  'signed-in': [{ who: 'anonymous', status: 401, type: '/problems/unauthenticated' }],
  self: [
    { who: 'anonymous', status: 401, type: '/problems/unauthenticated' },
    { who: 'stranger', status: 404, type: '/problems/not-found' },
  ],
  owner: [
    { who: 'anonymous', status: 401, type: '/problems/unauthenticated' },
    { who: 'stranger', status: 404, type: '/problems/not-found' },
  ],
  admin: [
    { who: 'anonymous', status: 401, type: '/problems/unauthenticated' },
    { who: 'stranger', status: 403, type: '/problems/forbidden' },
  ],
};

describe('access, as the route table declares it', () => {
  it('is declared for every route, and reaches every access level there is', () => {
    const levels = new Set(API_ROUTES.map((route) => route.spec.access));
    expect([...levels].sort()).toEqual(Object.keys(REFUSALS).sort());
  });

  for (const route of API_ROUTES) {
    const refusals = REFUSALS[route.spec.access];
    if (refusals.length === 0) continue;
    it(`${route.method.toUpperCase()} ${route.path} (${route.spec.access}) refuses ${refusals.map((r) => r.who).join(' and ')}`, async () => {
      for (const refusal of refusals) {
        const client = refusal.who === 'anonymous' ? app.anonymous() : stranger;
        const reply = await send(client, route);
        expect(reply.status, `${refusal.who}: ${reply.body?.detail}`).toBe(refusal.status);
        expect(reply.body.type).toBe(refusal.type);
      }
    });
  }

  it('answers a stranger on what the owner has exactly as on what does not exist', async () => {
    for (const route of API_ROUTES.filter((r) => r.spec.access === 'owner' || r.spec.access === 'self')) {
      const mine = await send(stranger, route);
      const none = await send(stranger, route, pathOf(route, NOTHING));
      const kind = route.shape.params?.id?.names ?? '';
      expect(mine.status, route.operationId).toBe(none.status);
      expect(mine.body.detail.replace(names[kind]!, 'X'), route.operationId).toBe(none.body.detail.replace(NOTHING[kind]!, 'X'));
    }
  });

  it("lets the owner through where it refuses the stranger: every read of the owner's things answers", async () => {
    for (const route of API_ROUTES.filter((r) => (r.spec.access === 'owner' || r.spec.access === 'self') && r.method === 'get')) {
      const reply = await owner.request('GET', pathOf(route));
      expect(reply.status, `${route.operationId}: ${reply.body?.detail}`).toBe(200);
    }
  });
});
