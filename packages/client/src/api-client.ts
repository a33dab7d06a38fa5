// The typed client of the REST API, for browsers and Node, derived from the route table: where
// each operation goes comes from api/operations.ts, and its request and answer types are the zod
// schemas the services validate with (packages/contract/src), imported as types only, so a browser
// bundle carries no schema code. Refusals throw ApiProblem; ETag / If-Match,
// Idempotency-Key and Wait-For-Position are options; cursor pages are an async iterator. It
// speaks the current version (v2, the unversioned paths); v1 is deprecated and not offered.
import type { z } from 'zod';
import type {
  passwordBody,
  providerLocationBody,
  providersBody,
  sessionBody,
  signInBody,
} from '@eventide/contract/resources/auth/schemas.ts';
import type { cursorPageOf, offsetPageOf } from '@eventide/contract/common.ts';
import type {
  accessRecord,
  documentList,
  documentPeople,
  documentSummary,
  documentText,
  newDocumentBody,
  SharedRole,
  shareBody,
} from '@eventide/contract/resources/documents/schemas.ts';

export type { DocumentRole, SharedRole } from '@eventide/contract/resources/documents/schemas.ts';
export type { ProductSort } from '@eventide/contract/resources/products/schemas.ts';
import type { createOrderBody, orderChanges, orderListQuery, orderV2Body } from '@eventide/contract/resources/orders/schemas.ts';
import type { createProductBody, ProductSort, productBody, productChanges } from '@eventide/contract/resources/products/schemas.ts';
import type { HistoryPage } from '@eventide/contract/history.ts';
import type { DocumentTimeline, NamedVersion, nameVersionBody } from '@eventide/contract/resources/documents/versions.ts';

export type { DocumentTimeline, Milestone, NamedVersion } from '@eventide/contract/resources/documents/versions.ts';

export type { HistoryEntry, HistoryPage } from '@eventide/contract/history.ts';
import type { searchBody } from '@eventide/contract/resources/products/search.ts';
import type {
  followersBody,
  parkedEventBody,
  parkedQuery,
  deadlinesBody,
  deadlinesQuery,
  requestedBody,
  retryParkedBody,
  skipParkedBody,
  streamEventsBody,
  streamEventsQuery,
  streamsBody,
  streamsQuery,
} from '@eventide/contract/resources/operator/schemas.ts';
import type {
  changeWebhookBody,
  createWebhookBody,
  deliveriesQuery,
  deliveryBody,
  webhookBody,
  webhooksBody,
  webhookWithSecretBody,
} from '@eventide/contract/resources/webhooks/schemas.ts';
import type { signUpBody, userChanges, userListQuery, userV2Body } from '@eventide/contract/resources/users/schemas.ts';
import type { personalDataExport } from '@eventide/contract/resources/users/personal-data.ts';
import { OPERATIONS, type OperationName } from '@eventide/contract/operations.ts';
import type { SHAPES } from '@eventide/contract/routes.ts';
import { ApiProblem, retryAfterMs, type ProblemDocument } from './problem.ts';
import { followChanges, type FollowOptions, type LiveEvent } from './changes.ts';
import type { ChangeResource } from '@eventide/contract/resources/live/change-events.ts';

export type { ChangeResource } from '@eventide/contract/resources/live/change-events.ts';

type In<S extends z.ZodType> = z.input<S>;
type Out<S extends z.ZodType> = z.output<S>;
export type User = Out<typeof userV2Body>;
export type PersonalDataExport = Out<typeof personalDataExport>;
export type Product = Out<typeof productBody>;
/** What narrows and orders a list of products: a category; a currency, and a price range in its minor units; an order. */
export interface ProductListing {
  category?: string;
  sort?: ProductSort;
  currency?: string;
  minPrice?: number;
  maxPrice?: number;
}
export type Order = Out<typeof orderV2Body>;
export type Session = Out<typeof sessionBody>;
export type SearchResult = Out<typeof searchBody>;
export type DocumentText = Out<typeof documentText>;
export type DocumentAccess = Out<typeof accessRecord>;
export type DocumentSummary = Out<typeof documentSummary>;
export type DocumentPeople = Out<typeof documentPeople>;
export type Followers = Out<typeof followersBody>;
export type ParkedEvent = Out<typeof parkedEventBody>;
export type Webhook = Out<typeof webhookBody>;
export type WebhookWithSecret = Out<typeof webhookWithSecretBody>;
export type WebhookDelivery = Out<typeof deliveryBody>;
export type PendingDeadline = Out<typeof deadlinesBody>['items'][number];
export type StreamEvent = Out<typeof streamEventsBody>['items'][number];
export type OffsetPage<S extends z.ZodType> = Out<ReturnType<typeof offsetPageOf<S>>>;
export type CursorPage<S extends z.ZodType> = Out<ReturnType<typeof cursorPageOf<S>>>;
/** A query as the service takes it, numbers allowed where the wire has digits. */
type QueryOf<S extends z.ZodType> = { [K in keyof In<S>]?: In<S>[K] | number };

/**
 * Any operation of the route table, by name: its method, path and the request headers it reads
 * come from the table (api/operations.ts, which carries no schema code), its body and query types
 * from the schemas the services validate with (imported as types only). The methods below are
 * shorthands over it.
 */
type Operation = OperationName;
type PathParameters<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameters<Rest> : never;
type ShapeOf<K extends Operation> = (typeof SHAPES)[K];
export interface CallOf<K extends Operation> {
  params?: Record<PathParameters<(typeof OPERATIONS)[K]['path']>, string>;
  query?: ShapeOf<K> extends { query: infer Q extends z.ZodType } ? QueryOf<Q> : never;
  body?: ShapeOf<K> extends { body: infer B extends z.ZodType } ? In<B> : ShapeOf<K> extends { upload: object } ? Blob : never;
  options?: ReadOptions & WriteOptions;
}

export interface ClientOptions {
  /** The service's base URL; '' in a browser page of the same site. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Sent with every request (a Cookie header in Node, say). */
  headers?: Record<string, string>;
  /**
   * Reads wait until the read models include this client's latest write (Wait-For-Position with
   * the highest Event-Position its writes were answered with), so a page that just wrote
   * something finds it; a read's own waitForPosition still wins. Off by default.
   */
  readYourWrites?: boolean;
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** An Event-Position a write answered: the read waits until the read models include it. */
  waitForPosition?: number;
}

export interface WriteOptions {
  signal?: AbortSignal;
  /** The same key sent again gets the first answer, and the write acts once. */
  idempotencyKey?: string;
  /** The version last read (the ETag): refused with 412 if the entity has changed since. */
  ifMatch?: number | string;
}

/** An answer with what its headers say: the entity's version (ETag) and the write's position. */
export interface Answer<T> {
  data: T;
  status: number;
  /** From ETag: send it back as ifMatch. */
  version: number | undefined;
  /** From Event-Position: send it as waitForPosition to read your write. */
  position: number | undefined;
  headers: Headers;
}

export function createApiClient(clientOptions: ClientOptions) {
  const send = clientOptions.fetch ?? ((input, init) => fetch(input, init));
  /** The highest Event-Position a write of this client was answered with. */
  let written = 0;

  /** Where an operation is, with its parameters: for a page to send the browser to (a download, a redirect). */
  function urlOf<K extends Operation>(operation: K, request: Pick<CallOf<K>, 'params' | 'query'> = {}): string {
    const { params = {}, query = {} } = request as { params?: Record<string, string>; query?: Record<string, unknown> };
    const path = OPERATIONS[operation].path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    return `${clientOptions.baseUrl}${path}${search.size > 0 ? `?${search}` : ''}`;
  }

  async function call<K extends Operation>(operation: K, request: CallOf<K> = {}): Promise<Answer<unknown>> {
    const { method } = OPERATIONS[operation];
    const { body, options = {} } = request as { body?: unknown; options?: ReadOptions & WriteOptions };
    const url = urlOf(operation, request);
    const headers: Record<string, string> = { accept: 'application/json', ...clientOptions.headers };
    // A picture goes as its bytes, of the type the file says; anything else as JSON.
    const bytes = typeof Blob !== 'undefined' && body instanceof Blob ? body : undefined;
    if (body !== undefined) headers['content-type'] = bytes ? bytes.type : 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    if (options.ifMatch !== undefined) headers['If-Match'] = typeof options.ifMatch === 'number' ? `"${options.ifMatch}"` : options.ifMatch;
    const waitFor = options.waitForPosition ?? (clientOptions.readYourWrites && method === 'get' && written > 0 ? written : undefined);
    if (waitFor !== undefined) headers['Wait-For-Position'] = String(waitFor);
    const response = await send(url, {
      method: method.toUpperCase(),
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: bytes ?? JSON.stringify(body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const text = await response.text();
    const parsed: unknown = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;
    if (!response.ok) throw problemOf(response, parsed, text);
    const etag = response.headers.get('etag')?.replace(/^W\//, '').replaceAll('"', '');
    const position = response.headers.get('event-position');
    if (position && method !== 'get') written = Math.max(written, Number(position));
    return {
      data: parsed,
      status: response.status,
      version: etag ? Number(etag) : undefined,
      position: position ? Number(position) : undefined,
      headers: response.headers,
    };
  }

  /** The answer's body, as the route table documents it (the shorthands name its type). */
  const answer = <T>(sent: Promise<Answer<unknown>>) => sent as Promise<Answer<T>>;
  const data = async <T>(sent: Promise<Answer<unknown>>) => (await sent).data as T;

  return {
    /** Any operation by its name in the route table (the shorthands below cover the JSON ones). */
    call,
    urlOf,
    users: {
      signUp: (body: In<typeof signUpBody>, options?: WriteOptions) => answer<User>(call('createUser', { body, options })),
      get: (id: string, options?: ReadOptions) => answer<User>(call('getUser', { params: { id }, options })),
      list: (query: QueryOf<typeof userListQuery> = {}, options?: ReadOptions) =>
        data<OffsetPage<typeof userV2Body>>(call('listUsers', { query, options })),
      change: (id: string, body: In<typeof userChanges>, options?: WriteOptions) =>
        answer<User>(call('changeUser', { params: { id }, body, options })),
      delete: (id: string, options?: WriteOptions) => answer<User>(call('deleteUser', { params: { id }, options })),
      /** Everything held about the user (docs/privacy.md#export); a page offers it as a download at `exportUrl`. */
      export: (id: string) => data<PersonalDataExport>(call('exportPersonalData', { params: { id } })),
      exportUrl: (id: string) => urlOf('exportPersonalData', { params: { id } }),
      /** The user's changes, newest first; pass the last page's nextCursor for older ones. */
      history: (id: string, query: { cursor?: string; limit?: number } = {}, options?: ReadOptions) =>
        data<HistoryPage>(call('userHistory', { params: { id }, query, options })),
    },
    products: {
      create: (body: In<typeof createProductBody>, options?: WriteOptions) => answer<Product>(call('createProduct', { body, options })),
      get: (id: string, options?: ReadOptions) => answer<Product>(call('getProduct', { params: { id }, options })),
      change: (id: string, body: In<typeof productChanges>, options?: WriteOptions) =>
        answer<Product>(call('changeProduct', { params: { id }, body, options })),
      delete: (id: string, options?: WriteOptions) => answer<Product>(call('deleteProduct', { params: { id }, options })),
      /** Adds a picture after the product's others (admins): a JPEG, PNG or WebP file, sent as its bytes. */
      addImage: (id: string, picture: Blob, options?: WriteOptions) =>
        answer<Product>(call('addProductImage', { params: { id }, body: picture, options })),
      /** The product's changes, newest first (admins); pass the last page's nextCursor for older ones. */
      history: (id: string, query: { cursor?: string; limit?: number } = {}, options?: ReadOptions) =>
        data<HistoryPage>(call('productHistory', { params: { id }, query, options })),
      /** An offset page, newest first (cursor pages are steadier under writes: page() and all()). */
      list: (query: { page?: number; limit?: number } = {}, options?: ReadOptions) =>
        data<OffsetPage<typeof productBody>>(call('listProducts', { query, options })),
      /**
       * One cursor page; pass the last page's nextCursor for the next, with the same narrowing.
       * Newest first unless `sort` says; of one category, one currency and a price range (in
       * minor units) when asked.
       */
      page: (query: ProductListing & { cursor?: string; limit?: number } = {}, options?: ReadOptions) =>
        data<CursorPage<typeof productBody>>(call('pageProducts', { query, options })),
      /** Every product (of the listing asked for), a page at a time as the loop asks for them. */
      async *all(query: ProductListing & { limit?: number } = {}, options?: ReadOptions): AsyncGenerator<Product> {
        for (let cursor: string | null = ''; cursor !== null; ) {
          const page: CursorPage<typeof productBody> = await data(call('pageProducts', { query: { ...query, cursor }, options }));
          yield* page.items;
          cursor = page.nextCursor;
        }
      },
      search: (q: string, options?: ReadOptions & { limit?: number }) =>
        data<SearchResult>(call('search', { query: { q, limit: options?.limit }, options })),
    },
    orders: {
      create: (body: In<typeof createOrderBody>, options?: WriteOptions) => answer<Order>(call('createOrder', { body, options })),
      get: (id: string, options?: ReadOptions) => answer<Order>(call('getOrder', { params: { id }, options })),
      list: (query: QueryOf<typeof orderListQuery> = {}, options?: ReadOptions) =>
        data<OffsetPage<typeof orderV2Body>>(call('listOrders', { query, options })),
      change: (id: string, body: In<typeof orderChanges>, options?: WriteOptions) =>
        answer<Order>(call('changeOrder', { params: { id }, body, options })),
      delete: (id: string, options?: WriteOptions) => answer<Order>(call('deleteOrder', { params: { id }, options })),
      /** The order's changes, newest first; pass the last page's nextCursor for older ones. */
      history: (id: string, query: { cursor?: string; limit?: number } = {}, options?: ReadOptions) =>
        data<HistoryPage>(call('orderHistory', { params: { id }, query, options })),
    },
    /**
     * The changes to the orders, products and users this session may read, as they reach the read
     * models, until `signal` aborts (docs/api.md#live). Resumes by itself after a dropped connection.
     */
    changes: (query: { of?: readonly ChangeResource[]; after?: number } = {}, options: FollowOptions = {}) =>
      followChanges<{ orders: Order; products: Product; users: User }>(
        (lastEventId, signal) =>
          send(urlOf('streamChanges', { query: { of: query.of?.join(','), after: query.after } }), {
            headers: { accept: 'text/event-stream', ...clientOptions.headers, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
            credentials: 'same-origin',
            ...(signal ? { signal } : {}),
          }),
        async (response) => {
          const text = await response.text();
          return problemOf(response, /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined, text);
        },
        options,
      ),
    auth: {
      signIn: (body: In<typeof signInBody>, options?: WriteOptions) => data<Session>(call('signIn', { body, options })),
      signOut: async () => void (await call('signOut')),
      session: (options?: ReadOptions) => data<Session>(call('getSession', { options })),
      setPassword: async (body: In<typeof passwordBody>) => void (await call('setPassword', { body })),
      unlinkProvider: async (provider: string) => void (await call('unlinkProvider', { params: { provider } })),
      /** Where to send the browser to link a provider to the signed-in account (and come back to returnTo). */
      linkProviderLocation: async (provider: string, returnTo?: string) =>
        (await data<Out<typeof providerLocationBody>>(call('linkProvider', { params: { provider }, query: { returnTo } }))).location,
      /** The identity providers configured, to offer on a sign-in page. */
      providers: async () => (await data<Out<typeof providersBody>>(call('listProviders'))).providers,
      /** Where to send the browser to sign in with a provider (a full-page navigation, not a fetch). */
      providerSignInUrl: (provider: string, returnTo?: string) =>
        urlOf('startProviderSignIn', { params: { provider }, query: { returnTo } }),
    },
    documents: {
      /** The caller's documents (owned and shared with them), the most recently changed first. */
      list: async () => (await data<Out<typeof documentList>>(call('listDocuments'))).items,
      create: (body: In<typeof newDocumentBody>) => data<DocumentSummary>(call('createDocument', { body })),
      people: (id: string) => data<DocumentPeople>(call('getDocumentPeople', { params: { id } })),
      /** Shares with the account of an email, or by name with someone the caller already shares a document with. */
      shareWith: (id: string, person: In<typeof shareBody>) =>
        data<DocumentPeople>(call('shareDocument', { params: { id }, body: person })),
      get: (id: string, at: { version?: number; at?: string } = {}) =>
        data<DocumentText>(call('getDocument', { params: { id }, query: at })),
      access: (id: string) => data<DocumentAccess>(call('getDocumentAccess', { params: { id } })),
      /** Shares by user id, as an editor or a viewer (moving them from the other part); shareWith() takes an email or a name. */
      share: (id: string, userId: string, role: SharedRole = 'editor') =>
        data<DocumentAccess>(call(role === 'editor' ? 'addEditor' : 'addViewer', { params: { id, userId } })),
      /** Takes the part away from someone who has it: they can no longer open the document. */
      unshare: (id: string, userId: string, role: SharedRole = 'editor') =>
        data<DocumentAccess>(call(role === 'editor' ? 'removeEditor' : 'removeViewer', { params: { id, userId } })),
      /** The timeline: named versions, the milestones kept, and where the history starts. */
      versions: (id: string) => data<DocumentTimeline>(call('listVersions', { params: { id } })),
      /** Names a version (the current one unless `version` says), so that it is kept. */
      nameVersion: (id: string, body: In<typeof nameVersionBody>) => data<NamedVersion>(call('nameVersion', { params: { id }, body })),
      forgetVersion: async (id: string, version: number) =>
        void (await call('forgetVersion', { params: { id, version: String(version) } })),
    },
    /** Webhooks (admins): endpoints for chosen events, their secrets and deliveries (docs/webhooks.md). */
    webhooks: {
      list: () => data<Out<typeof webhooksBody>>(call('listWebhooks')),
      /** Registers an endpoint; the answer's `secret` is shown this once. */
      create: (body: In<typeof createWebhookBody>) => data<WebhookWithSecret>(call('createWebhook', { body })),
      get: (id: string) => data<Webhook>(call('getWebhook', { params: { id } })),
      change: (id: string, body: In<typeof changeWebhookBody>) => data<Webhook>(call('changeWebhook', { params: { id }, body })),
      remove: async (id: string) => void (await call('deleteWebhook', { params: { id } })),
      /** A new secret; the previous one signs beside it for a while (previousSecretUntil). */
      rotateSecret: (id: string) => data<WebhookWithSecret>(call('rotateWebhookSecret', { params: { id } })),
      deliveries: (id: string, query: QueryOf<typeof deliveriesQuery> = {}) =>
        data<CursorPage<typeof deliveryBody>>(call('listWebhookDeliveries', { params: { id }, query })),
      redeliver: (id: string, deliveryId: string) => data<WebhookDelivery>(call('redeliverWebhook', { params: { id, deliveryId } })),
    },
    /** The operator's console (admins): the followers of the log, what they parked, and the log itself. */
    operations: {
      followers: () => data<Followers>(call('listFollowers')),
      /** Where followFollowers streams the same, as it changes (an EventSource's URL). */
      followersLiveUrl: () => urlOf('followFollowers'),
      parked: (query: QueryOf<typeof parkedQuery> = {}) => data<CursorPage<typeof parkedEventBody>>(call('listParked', { query })),
      retry: (body: In<typeof retryParkedBody> = {}) => data<Out<typeof requestedBody>>(call('retryParked', { body })),
      skip: (body: In<typeof skipParkedBody>) => data<Out<typeof requestedBody>>(call('skipParked', { body })),
      /** The pending deadlines (an order's payment), the next due first: docs/deadlines.md. */
      deadlines: (query: QueryOf<typeof deadlinesQuery> = {}) => data<Out<typeof deadlinesBody>>(call('listDeadlines', { query })),
      streams: (query: QueryOf<typeof streamsQuery> = {}) => data<Out<typeof streamsBody>>(call('listStreams', { query })),
      stream: (streamId: string, query: QueryOf<typeof streamEventsQuery> = {}) =>
        data<Out<typeof streamEventsBody>>(call('readStream', { params: { streamId }, query })),
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
/** One message of api.changes(). */
export type ChangeEvent = LiveEvent<{ orders: Order; products: Product; users: User }>;

function problemOf(response: Response, parsed: unknown, text: string): ApiProblem {
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  const document = parsed as Partial<ProblemDocument> | undefined;
  if (document && typeof document.type === 'string' && typeof document.status === 'number') {
    return new ApiProblem(document as ProblemDocument, retryAfter);
  }
  // Not one of ours (a proxy's error page, say): still a typed problem.
  return new ApiProblem(
    { type: 'http', title: response.statusText || 'Request failed', status: response.status, detail: text.slice(0, 200) },
    retryAfter,
  );
}
