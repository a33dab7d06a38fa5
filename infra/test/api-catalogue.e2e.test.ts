// The route table (packages/contract/src/operations.ts and routes.ts) is the API's one description: the
// mount serves it, and the OpenAPI document and the typed client come from it. Nothing else can
// serve a route (architecture/declared-once), and the mount refuses to start without a handler for
// each of a service's operations (packages/platform/src/http/mount.int.test.ts); here the whole app answers
// every route of the table at its own handler.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@eventide/contract/openapi.ts';
import { asyncApiDocument } from '@eventide/contract/asyncapi.ts';
import { API_ROUTES } from '@eventide/contract/routes.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp({ collab: true });
});
afterAll(() => app?.close());

describe('the route table', () => {
  it('is what the app serves: every route of it reaches a handler, at every path a version serves it', async () => {
    const unserved: string[] = [];
    for (const route of API_ROUTES) {
      const path = route.path.replace(/\{\w+\}/g, 'x');
      const reply = await app.anonymous().request(route.method.toUpperCase(), path);
      // The router's own answers, when nothing is mounted at a path or for a method.
      const router = reply.status === 405 || (reply.status === 404 && /^no resource at /.test(reply.body?.detail ?? ''));
      if (router) unserved.push(`${route.method.toUpperCase()} ${route.path}`);
    }
    expect(unserved).toEqual([]);
  });

  it('refuses with problem documents that the served description describes', async () => {
    // Every route asked with nothing (no session, no body, no id): what a stranger gets is
    // refusals, and each one is a document the OpenAPI description's Problem schema allows.
    const described = (await app.anonymous().request('GET', '/openapi.json')).body;
    const validate = new Ajv2020({ strict: false }).compile(described.components.schemas.Problem);
    const problems: Array<{ route: string; body: unknown }> = [];
    for (const route of API_ROUTES) {
      const reply = await app.anonymous().request(route.method.toUpperCase(), route.path.replace(/\{\w+\}/g, 'x'));
      if (reply.headers.get('content-type')?.startsWith('application/problem+json'))
        problems.push({ route: `${route.method} ${route.path}`, body: reply.body });
    }
    expect(problems.length).toBeGreaterThan(20);
    const mismatched = problems.filter(({ body }) => !validate(body)).map(({ route, body }) => ({ route, body }));
    expect(mismatched).toEqual([]);
  });

  it('gives every route its own operation id', () => {
    const ids = API_ROUTES.map((r) => r.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

describe('the API description as served', () => {
  it('serves the OpenAPI document at /openapi.json', async () => {
    const reply = await app.anonymous().request('GET', '/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(openApiDocument());
  });

  it('serves the events’ AsyncAPI document at /asyncapi.json, and renders it at /docs/events with no script', async () => {
    const reply = await app.anonymous().request('GET', '/asyncapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(asyncApiDocument());
    const page = await app.anonymous().request('GET', '/docs/events');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.text).not.toMatch(/<script/);
    for (const name of ['user:created', 'product:created', 'order:deleted']) expect(page.text).toContain(`<h3>${name}</h3>`);
    expect(page.text).toContain('eventide.product');
  });

  it('renders it at /docs from files served here, under a policy that allows only this site', async () => {
    const reply = await app.anonymous().request('GET', '/docs');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const files = [...reply.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, path]) => path!);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const path of files) {
      expect(path.startsWith('/'), `${path} is served here`).toBe(true);
      expect((await app.anonymous().request('GET', path)).status, path).toBe(200);
    }
  });

  it('lets no other site frame any page it serves (clickjacking)', async () => {
    const pages = API_ROUTES.filter((route) => Object.values(route.shape.answers).some((answer) => answer.contentType === 'text/html'));
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const route of pages) {
      const reply = await app.anonymous().request('GET', route.path);
      expect(reply.headers.get('content-security-policy'), route.path).toMatch(/frame-ancestors 'none'/);
    }
  });

  it("points v1's deprecation link at a page that exists", async () => {
    const reply = await app.request('GET', '/v1/users');
    const link = reply.headers.get('link') ?? '';
    const target = /<([^>]+)>; rel="deprecation"/.exec(link)?.[1];
    expect(target).toBeDefined();
    const page = await app.anonymous().request('GET', target!);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/deprecated/);
  });
});
