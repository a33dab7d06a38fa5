// What every read handler needs, and the helpers they share.
import type { Context } from 'koa';
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { ImageStore } from '@eventide/stores/image-store/port.ts';
import type { ProductSearch } from '@eventide/stores/product-search/port.ts';
import type { Collection, ReadDocument, ReadFields, ReadStore } from '@eventide/stores/read-store/port.ts';
import type { ListOrder } from '@eventide/stores/read-store/list-keys.ts';
import type { Cursors } from '../cursor.ts';
import type { Progress } from '../consistency.ts';
import type { LiveDeps } from '../live/stream.ts';
import type { SessionWatch } from '../session-watch.ts';
import type { OperatorDeps } from '../operator/followers.ts';
import type { FollowersFeed } from '../operator/live.ts';
import type { WebhookReadDeps } from '../operator/webhooks.ts';

export interface QueryDeps {
  readStore: ReadStore;
  productSearch: ProductSearch;
  /** Products' pictures (GET /images/{imageId}/{size}). */
  images: ImageStore;
  cursors: Cursors;
  progress: Progress;
  /** GET /events streams the public events from it (server-sent events). */
  eventStore: EventStore;
  /** Aborted when the process begins to shut down: event streams end, waiting reads answer. */
  stopping: AbortSignal;
  /** Ends streams when their session ends (GET /events, GET /changes). */
  session: SessionWatch;
  /** GET /changes: the live streams of the read models. */
  live: LiveDeps;
  /** The operator's console: the followers' stores, and the feed of their state for live consoles. */
  operator: OperatorDeps & { feed: FollowersFeed };
  /** The admin's reads of webhooks. */
  webhooks: Omit<WebhookReadDeps, 'cursors'>;
}

/** How a collection's documents are shown: the representation of the entity's state. */
export type Render<C extends Collection> = (fields: ReadFields[C]) => unknown;

/** One entity by id: not found when it never existed, gone when it was deleted. */
export async function findOne<C extends Collection>(
  readStore: ReadStore,
  collection: C,
  id: string,
  what: string,
): Promise<ReadDocument<C>> {
  const doc = await readStore.get(collection, id);
  if (!doc) throw refuse.notFound(`${what} ${id}`);
  return live(doc, `${what} ${id}`);
}

/** The document, unless it was deleted (gone). */
export function live<C extends Collection>(doc: ReadDocument<C>, what: string): ReadDocument<C> {
  if (doc.deleted) throw refuse.gone(what);
  return doc;
}

/** An entity's representation, with its revision as the ETag. */
export function answerOne<C extends Collection>(ctx: Context, doc: ReadDocument<C>, render: Render<C>): void {
  ctx.set('ETag', `"${doc.version}"`);
  ctx.body = render(doc.fields);
}

/** One page of an offset list, newest first: its documents, and {page, limit, total}. */
export async function offsetList<C extends Collection>(
  readStore: ReadStore,
  collection: C,
  query: { page?: number | undefined; limit?: number | undefined },
  filter: Record<string, string> = {},
  order?: ListOrder,
) {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const result = await readStore.list(collection, { limit, offset: (page - 1) * limit, filter, ...(order ? { order } : {}) });
  return { docs: result.items, page, limit, total: result.total ?? 0 };
}

/** One page of an offset list, newest first: {items, page, limit, total}. */
export async function offsetPage<C extends Collection>(
  readStore: ReadStore,
  collection: C,
  query: { page?: number | undefined; limit?: number | undefined },
  render: Render<C>,
  filter: Record<string, string> = {},
) {
  const { docs, ...rest } = await offsetList(readStore, collection, query, filter);
  return { items: docs.map((d) => render(d.fields)), ...rest };
}

/** Answers with JSON already serialised (rendered.ts). */
export function answerJson(ctx: Context, json: string): void {
  ctx.type = 'application/json';
  ctx.body = json;
}
