// The path template the router matched (`/products/:id`), for labels and span names that must not
// carry ids; undefined when no route matched. @koa/router leaves it on the context.
import type { Context } from 'koa';

export function routeTemplate(ctx: Context): string | undefined {
  const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  return route === undefined ? undefined : String(route);
}
