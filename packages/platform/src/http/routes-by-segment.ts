// The routes of one router, looked up by the first segment of the request's path. @koa/router
// tests every route's pattern against every request, in order: with every service's routes in one
// router (so that 405 names the methods of all of them), that was some 80 regular expressions per
// request, each its own compiled code for the processor to fetch. Here a request meets only the
// routes that can match it: those whose path begins with its first segment, and those that begin
// with a parameter or a pattern (they can match any path), in the order they were registered.
import Router from '@koa/router';

/** A path's first segment when it is plain text, lower-cased (the router ignores case unless told); undefined for a parameter or a pattern. */
function literalFirstSegment(path: string | RegExp): string | undefined {
  if (typeof path !== 'string') return undefined;
  const segment = /^\/([^/]*)/.exec(path)?.[1];
  return segment !== undefined && /^[A-Za-z0-9._~-]*$/.test(segment) ? segment.toLowerCase() : undefined;
}

/** The first segment of a request's path, lower-cased as literalFirstSegment keys them. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * Dispatches as `all.routes()` would, to a router per first segment of the paths `all` holds.
 * `all` keeps its routes and stays the one to ask for allowedMethods(): it reads what the
 * dispatching router matched, whichever that was.
 */
export function routesBySegment(all: Router): ReturnType<Router['routes']> {
  const anyPath = all.stack.filter((layer) => literalFirstSegment(layer.path) === undefined);
  const routers = new Map<string, Router>();
  for (const layer of all.stack) {
    const segment = literalFirstSegment(layer.path);
    if (segment === undefined || routers.has(segment)) continue;
    const router = new Router();
    // The same layers in the same order: those of this segment and those that match any path.
    router.stack = all.stack.filter((other) => anyPath.includes(other) || literalFirstSegment(other.path) === segment);
    routers.set(segment, router);
  }
  const rest = new Router();
  rest.stack = anyPath;
  const dispatch = new Map([...routers].map(([segment, router]) => [segment, router.routes()]));
  const otherwise = rest.routes();
  return (ctx, next) => (dispatch.get(firstSegment(ctx.path)) ?? otherwise)(ctx, next);
}
