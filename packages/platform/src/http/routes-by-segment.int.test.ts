// Dispatching by the first segment of the path answers every request exactly as the one router
// holding all the routes does: the same route, parameters, middleware order, 404, 405 and Allow.
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesBySegment } from './routes-by-segment.ts';

/** Two services' routers as createHttpApp composes them, including routes that can match any path. */
function composedRouter(): Router {
  const answer = (name: string) => (ctx: Koa.Context) => {
    ctx.body = { route: name, params: ctx.params, seen: ctx.state.seen ?? [] };
  };
  const mark = (name: string) => async (ctx: Koa.Context, next: Koa.Next) => {
    ctx.state.seen = [...(ctx.state.seen ?? []), name];
    await next();
  };
  const first = new Router();
  first.use(mark('everywhere'));
  first.get('/:slug/feed', answer('feed of a slug, registered first'));
  first.get('/products', answer('list products'));
  first.get('/products/:id', answer('one product'));
  first.use('/api', mark('api only'));
  first.get('/api/products', answer('api products'));
  first.get('/', answer('root'));
  const second = new Router();
  second.post('/products', answer('create product'));
  second.patch('/products/:id', answer('change product'));
  second.get('/products/feed', answer('products feed, registered after the slug feed'));
  second.get('/search', answer('search'));
  second.get('/Admin/reports', answer('a path written with capitals'));
  second.get(/^\/legacy-(\d+)$/, answer('a pattern'));
  second.get('/:slug', answer('a page by slug'));
  const root = new Router();
  for (const router of [first, second]) root.use(router.routes());
  return root;
}

async function serve(routes: (root: Router) => ReturnType<Router['routes']>): Promise<{ url: string; close: () => void }> {
  const root = composedRouter();
  const app = new Koa();
  app.use(routes(root));
  app.use(root.allowedMethods());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const REQUESTS: Array<[string, string]> = [
  ['GET', '/'],
  ['GET', '/products'],
  ['GET', '/PRODUCTS'],
  ['GET', '/products/'],
  ['GET', '/products/42'],
  ['POST', '/products'],
  ['PATCH', '/products/42'],
  ['DELETE', '/products'],
  ['OPTIONS', '/products/42'],
  ['GET', '/products/feed'],
  ['GET', '/kettles/feed'],
  ['GET', '/search'],
  ['GET', '/Search'],
  ['PUT', '/search'],
  ['GET', '/admin/reports'],
  ['GET', '/Admin/reports'],
  ['GET', '/api/products'],
  ['GET', '/api/nothing'],
  ['GET', '/legacy-7'],
  ['GET', '/legacy-x'],
  ['GET', '/about'],
  ['GET', '/about/more/deeply'],
  ['GET', '/caf%C3%A9'],
  ['GET', '//products'],
  ['PROPFIND', '/products'],
];

describe('routes dispatched by the first segment of the path', () => {
  let plain: { url: string; close: () => void };
  let bySegment: { url: string; close: () => void };
  beforeAll(async () => {
    plain = await serve((root) => root.routes());
    bySegment = await serve(routesBySegment);
  });
  afterAll(() => {
    plain.close();
    bySegment.close();
  });

  const answerOf = async (url: string, method: string, path: string) => {
    const response = await fetch(url + path, { method });
    return { status: response.status, allow: response.headers.get('allow'), body: await response.text() };
  };

  it.each(REQUESTS)('%s %s is answered as by the one router', async (method, path) => {
    const expected = await answerOf(plain.url, method, path);
    expect(await answerOf(bySegment.url, method, path)).toEqual(expected);
  });

  it('still runs the routes that match any path, in their order, before the ones registered after them', async () => {
    const answer = JSON.parse((await answerOf(bySegment.url, 'GET', '/products/feed')).body);
    // The slug route was registered first, so it answers: the dispatch kept the registration order.
    expect(answer).toMatchObject({ route: 'feed of a slug, registered first', params: { slug: 'products' }, seen: ['everywhere'] });
    expect(JSON.parse((await answerOf(bySegment.url, 'GET', '/api/products')).body).seen).toEqual(['everywhere', 'api only']);
  });
});
