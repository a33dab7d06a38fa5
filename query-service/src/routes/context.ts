// What every read route needs, and the helpers they share.
import type { Context, Middleware } from 'koa';
import type Router from '@koa/router';
import { problems } from '@eventide/shared/http/problem.ts';
import { isUuid } from '@eventide/shared/ids.ts';
import type { Collection, ReadDocument, ReadStore } from '@eventide/shared/read-store/port.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { LimiterFactory } from '@eventide/shared/auth/rate-limit.ts';
import type { Cursors } from '../cursor.ts';
import { readConsistency, type Progress } from '../consistency.ts';
import { DEFAULT_LIMIT } from '@eventide/shared/api/paging.ts';

export interface QueryDeps {
  readStore: ReadStore;
  limiters: LimiterFactory;
  /** Requests per second per client: search, and one user's profile. */
  limits: { searchPerSecond: number; profilePerSecond: number };
  cursors: Cursors;
  progress: Progress;
  /** When given, GET /events streams the public events (server-sent events). */
  eventStore?: EventStore | undefined;
}

export type Render = (fields: ReadDocument['fields']) => unknown;

/** A GET route that honours Wait-For-Position and reports Read-Position, after any `before` (a rate limit). */
export function reader(router: Router, progress: Progress, ...before: Middleware[]) {
  const consistency: Middleware = readConsistency(progress);
  return (path: string, handler: (ctx: Context) => Promise<void>) => router.get(path, ...before, consistency, handler);
}

/** One entity by id: 404 when it never existed or the reader may not see it, 410 when it was deleted. */
export async function findOne(
  readStore: ReadStore,
  collection: Collection,
  ctx: Context,
  what: string,
  visible: (doc: ReadDocument) => boolean = () => true,
): Promise<ReadDocument> {
  const id = String((ctx.params as Record<string, string>).id ?? '');
  if (!isUuid(id)) throw problems.notFound(`${what} ${JSON.stringify(id.slice(0, 64))}`);
  const doc = await readStore.get(collection, id.toLowerCase());
  if (!doc || !visible(doc)) throw problems.notFound(`${what} ${id}`);
  if (doc.deleted) throw problems.gone(`${what} ${id}`);
  return doc;
}

/** One page of an offset list, newest first: {items, page, limit, total}. */
export async function offsetPage(
  readStore: ReadStore,
  collection: Collection,
  query: { page?: number | undefined; limit?: number | undefined },
  render: Render,
  filter: Record<string, string> = {},
) {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const result = await readStore.list(collection, { limit, offset: (page - 1) * limit, filter });
  return { items: result.items.map((d) => render(d.fields)), page, limit, total: result.total ?? 0 };
}

/** GET of one entity: its representation, with its revision as the ETag. */
export function byId(readStore: ReadStore, collection: Collection, what: string, render: Render) {
  return async (ctx: Context) => {
    const doc = await findOne(readStore, collection, ctx, what);
    ctx.set('ETag', `"${doc.version}"`);
    ctx.body = render(doc.fields);
  };
}
