// Times every request by its route template: the path a router matched (`/products/:id`), so that
// ids never become label values; a path no route matched counts as `unmatched`.
import type { Middleware } from 'koa';
import type { Histogram } from 'prom-client';
import { routeTemplate } from '../route-template.ts';

export function httpMetrics(requestSeconds: Histogram<'method' | 'route' | 'status'>): Middleware {
  return async (ctx, next) => {
    const end = requestSeconds.startTimer();
    try {
      await next();
    } finally {
      end({ method: ctx.method, route: routeTemplate(ctx) ?? 'unmatched', status: String(ctx.status) });
    }
  };
}
