// The route list in shared/src/api/routes.ts is the API's one description: the OpenAPI document
// and the typed client come from it. This fails when a router serves a route the list lacks, or
// the list names one that no router serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@eventide/shared/api/openapi.ts';
import { API_ROUTES, routerPath } from '@eventide/shared/api/routes.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp({ collab: true });
});
afterAll(() => app?.close());

describe('the API route list', () => {
  it('names exactly the routes the services serve', () => {
    const served = new Set(app.routes.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`)));
    const listed = new Set(API_ROUTES.map((r) => `${r.method.toUpperCase()} ${routerPath(r.path)}`));
    expect([...served].filter((route) => !listed.has(route)).sort(), 'served but not in the list').toEqual([]);
    expect([...listed].filter((route) => !served.has(route)).sort(), 'in the list but not served').toEqual([]);
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
