// The mount serves a route table and nothing else: it refuses to start when a handler is missing,
// has no route, or an owner route has no rule; it answers each route's path, method and versions,
// and applies what the table declares before the handler runs.
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Operation } from '@eventide/contract/operations.ts';
import { routesOf } from '@eventide/contract/routes.ts';
import type { Shape } from '@eventide/contract/shape.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { problemDetails } from './errors.ts';
import { mountApi, type MountOptions, type ServiceApi } from './mount.ts';

const operations = {
  listThings: {
    service: 'docs',
    method: 'get',
    path: '/things',
    access: 'public',
    tag: 't',
    summary: 'List things',
    versions: ['unversioned', 'v2', 'v1'],
  },
  getThing: { service: 'docs', method: 'get', path: '/things/{id}', access: 'owner', tag: 't', summary: 'Read a thing' },
  changeThing: { service: 'docs', method: 'patch', path: '/things/{id}', access: 'owner', tag: 't', summary: 'Change a thing' },
  secret: { service: 'docs', method: 'get', path: '/secret', access: 'admin', tag: 't', summary: 'Read the secret' },
} satisfies Record<string, Operation>;
const thingId = { schema: z.string().regex(/^t\d$/), names: 'thing' };
const shapes: Record<keyof typeof operations, Shape> = {
  listThings: {
    answers: { 200: { description: 'things' } },
    representations: { schema: { v1: z.string(), v2: z.string() }, represent: { v1: () => 'one', v2: () => 'two' } },
  },
  getThing: { params: { id: thingId }, answers: { 200: { description: 'a thing' } } },
  changeThing: { params: { id: thingId }, body: z.strictObject({ name: z.string() }), answers: { 200: { description: 'changed' } } },
  secret: { answers: { 200: { description: 'the secret' } } },
};
const routes = routesOf(operations, shapes);

/** Things owned by "ann"; any other user is a stranger to them. */
const owned = {
  load: async ({ id }: { id: string }) => (id === 't1' ? { owner: 'ann' } : undefined),
  check(who: { type: string; userId?: string }, thing: { owner: string } | undefined, { id }: { id: string }) {
    if (thing?.owner !== who.userId) throw refuse.notFound(`thing ${id}`);
  },
};
const handlers = {
  listThings: ({ ctx, version, represent }: Record<string, never> & { ctx: Koa.Context; version: string; represent: () => string }) => {
    ctx.body = { version, shown: represent() };
  },
  getThing: {
    owner: owned,
    handle: ({ ctx, owned: thing }: { ctx: Koa.Context; owned: unknown }) => {
      ctx.body = thing;
    },
  },
  changeThing: {
    owner: owned,
    handle: ({ ctx, body }: { ctx: Koa.Context; body: unknown }) => {
      ctx.body = body;
    },
  },
  secret: ({ ctx }: { ctx: Koa.Context }) => {
    ctx.body = { secret: 42 };
  },
};
const api = (h: Record<string, unknown>) => ({ service: 'docs', handlers: h }) as unknown as ServiceApi;
const mount = (options: Partial<MountOptions>) => mountApi({ apis: [api(handlers)], bodyLimit: 1024, routes, ...options });

let url: string;
let close: () => void;
beforeAll(async () => {
  const app = new Koa();
  app.use(problemDetails(createLogger({ level: 'silent' })));
  // Stands in for sessions: X-User names the signed-in user, X-Admin makes them one.
  app.use(async (ctx, next) => {
    const id = ctx.get('X-User');
    if (id) ctx.state.user = { id, roles: ctx.get('X-Admin') ? ['admin'] : [] };
    await next();
  });
  const { router } = mount({});
  app.use(router.routes());
  app.use(router.allowedMethods());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const ask = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
};

describe('mounting the route table', () => {
  it('refuses to start when a service misses a handler, has one the table does not give it, or an owner route has no rule', () => {
    const { secret: _, ...withoutSecret } = handlers;
    expect(() => mountApi({ apis: [api(withoutSecret)], bodyLimit: 1, routes })).toThrow(/no handler for secret \(GET \/secret\)/);
    expect(() => mountApi({ apis: [api({ ...handlers, extra: () => undefined })], bodyLimit: 1, routes })).toThrow(
      /handler for extra, which the table does not give it/,
    );
    expect(() => mountApi({ apis: [api({ ...handlers, getThing: handlers.getThing.handle })], bodyLimit: 1, routes })).toThrow(
      /needs an ownership rule/,
    );
  });

  it('serves every route of the table at its method and paths, and nothing else', () => {
    const { router, routes: served } = mount({});
    const layers = router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`));
    expect(layers.sort()).toEqual(served.map((r) => `${r.method.toUpperCase()} ${r.path.replace(/\{(\w+)\}/g, ':$1')}`).sort());
    expect(served.map((r) => r.operationId).sort()).toEqual([
      'changeThing',
      'getThing',
      'listThings',
      'listThingsV1',
      'listThingsV2',
      'secret',
    ]);
  });

  it('answers each version with its representation, and announces the deprecated one', async () => {
    expect((await ask('GET', '/things')).body).toEqual({ version: 'v2', shown: 'two' });
    expect((await ask('GET', '/v2/things')).body).toEqual({ version: 'v2', shown: 'two' });
    const v1 = await ask('GET', '/v1/things');
    expect(v1.body).toEqual({ version: 'v1', shown: 'one' });
    expect(v1.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(v1.headers.get('link')).toContain('</v2/things>; rel="successor-version"');
    expect((await ask('GET', '/things')).headers.get('deprecation')).toBeNull();
  });

  it('refuses by access level before the handler runs', async () => {
    expect((await ask('GET', '/secret')).status).toBe(401);
    expect((await ask('GET', '/secret', { 'X-User': 'bob' })).status).toBe(403);
    expect((await ask('GET', '/secret', { 'X-User': 'bob', 'X-Admin': '1' })).body).toEqual({ secret: 42 });
  });

  it("runs an owner route's rule, and gives the handler what it loaded", async () => {
    expect((await ask('GET', '/things/t1', { 'X-User': 'ann' })).body).toEqual({ owner: 'ann' });
    expect((await ask('GET', '/things/t1', { 'X-User': 'bob' })).status).toBe(404);
    expect((await ask('GET', '/things/t1')).status).toBe(401);
  });

  it('answers a path parameter that names nothing as not found, naming what it would name', async () => {
    const reply = await ask('GET', '/things/x!', { 'X-User': 'ann' });
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toBe('thing "x!" does not exist');
  });

  it("checks what the path names before the body: a stranger's bad body is answered as absent, the owner's as bad", async () => {
    expect((await ask('PATCH', '/things/t1', { 'X-User': 'bob' }, '{"nope": 1')).status).toBe(404);
    const bad = await ask('PATCH', '/things/t1', { 'X-User': 'ann' }, '{"nope": 1}');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual({ field: 'nope', message: 'is not a known field' });
    expect((await ask('PATCH', '/things/t1', { 'X-User': 'ann' }, '{"name": "n"}')).body).toEqual({ name: 'n' });
  });
});
