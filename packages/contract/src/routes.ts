// What each operation of operations.ts takes and answers: its path parameters, query and body as
// zod schemas (the mount validates with them), its answers, and for a versioned resource each
// version's representation. API_ROUTES puts the two halves together, one route per path a version
// is served under: what http/mount.ts serves, openapi.ts describes (and every test reply is checked against: infra/test/setup/openapi-conformance.ts).
import { z } from 'zod';
import { isUuid } from '@eventide/kernel/ids.ts';
import { orderV1, orderV2 } from './representations/order.ts';
import { CURRENT_API_VERSION, DEPRECATED_API_VERSIONS, type ApiVersion } from './versions.ts';
import { known as knownUser, userV1, userV2 } from './representations/user.ts';
import { passwordBody, providerLocationBody, providersBody, sessionBody, signInBody } from './auth.ts';
import { cursorPageOf, offsetPageOf } from './common.ts';
import {
  accessRecord,
  documentId,
  documentList,
  documentPeople,
  documentReadQuery,
  documentSummary,
  documentText,
  editorId,
  newDocumentBody,
  shareBody,
} from './documents.ts';
import { changesQuery } from './changes.ts';
import { documentTimeline, namedVersion, nameVersionBody, versionParam } from './document-versions.ts';
import { eventsQuery } from './events.ts';
import { OPERATIONS, type Method, type Operation, type OperationName, type PathVersion } from './operations.ts';
import { createOrderBody, orderChanges, orderListQuery, orderV1Body, orderV2Body, replaceOrderBody } from './orders.ts';
import { personalDataExport } from './personal-data.ts';
import { createProductBody, productBody, productChanges, productCursorQuery, productListQuery } from './products.ts';
import { searchBody, searchQuery } from './search.ts';
import { asOfQuery, historyPage, historyQuery } from './history.ts';
import {
  followersBody,
  parkedEventBody,
  parkedQuery,
  requestedBody,
  retryParkedBody,
  skipParkedBody,
  streamEventsBody,
  streamEventsQuery,
  streamId,
  streamsBody,
  streamsQuery,
} from './operator.ts';
import { profile, signUpBody, userChanges, userListQuery, userV1Body, userV2Body } from './users.ts';
import type { Answer, PathParameter, Representations, Shape } from './shape.ts';

const entityId = (names: string): PathParameter<string> => ({
  // Ids are UUIDs; anything else cannot name an entity, so it is not found rather than malformed.
  schema: z
    .string()
    .refine(isUuid)
    .transform((id) => id.toLowerCase()),
  names,
});
const provider: PathParameter<string> = { schema: z.string().max(64), names: 'identity provider' };
const document: PathParameter<string> = { schema: documentId, names: 'document' };
const editor: PathParameter<string> = { schema: editorId, names: 'user' };

/** Giving someone a part in a document, or taking it: the access record after it. */
const personAccess = {
  params: { id: document, userId: editor },
  answers: { 200: { description: 'the access record now', body: accessRecord } },
} satisfies Shape;
const html = (description: string): Answer => ({ description, contentType: 'text/html' });
const file = (description: string, contentType: string): Answer => ({ description, contentType });
const redirect = (description: string): Answer => ({ description });
const noContent: Answer = { description: 'done; no body' };
const healthJson = (description: string): Answer => ({ description, contentType: 'application/health+json' });
/** A file held in memory (static-file.ts): 304 when the client's copy (its ETag) is current. */
const unchanged: Answer = { description: 'unchanged since the ETag sent' };

const users: Representations<Parameters<typeof knownUser>[0]> = {
  schema: { v1: userV1Body, v2: userV2Body },
  represent: { v1: (state) => userV1(knownUser(state)), v2: (state) => userV2(knownUser(state)) },
};
const orders: Representations<Parameters<typeof orderV2>[0]> = {
  schema: { v1: orderV1Body, v2: orderV2Body },
  represent: { v1: orderV1, v2: orderV2 },
};
const page = (entity: z.ZodType) => offsetPageOf(entity);
const one = (entity: z.ZodType) => entity;
const user = { id: entityId('user') };
const order = { id: entityId('order') };
const product = { id: entityId('product') };

/** The shapes of a versioned resource's six operations, whose answers are made of its representations. */
function versionedShapes<
  Params extends Record<string, PathParameter>,
  List extends z.ZodType,
  Create extends z.ZodType,
  Change extends z.ZodType,
  Replace extends z.ZodType,
  Shown extends Representations<never>,
>(
  noun: string,
  shapes: { params: Params; list: List; create: Create; change: Change; replace: Replace; representations: Shown; deleted: string },
) {
  const { params, representations } = shapes;
  return {
    list: { query: shapes.list, answers: { 200: { description: `a page of ${noun}s, newest first`, body: page } }, representations },
    get: {
      params,
      query: asOfQuery,
      answers: { 200: { description: `the ${noun} (as it was at \`at\`, when given); its version is the ETag`, body: one } },
      representations,
    },
    create: {
      body: shapes.create,
      answers: { 201: { description: 'created; Location, ETag and Event-Position are set', body: one } },
      representations,
    },
    change: {
      params,
      body: shapes.change,
      answers: { 200: { description: 'changed; the new ETag and Event-Position are set', body: one } },
      representations,
    },
    replace: {
      params,
      body: shapes.replace,
      answers: { 200: { description: 'replaced; the new ETag and Event-Position are set', body: one } },
      representations,
    },
    delete: { params, answers: { 200: { description: shapes.deleted, body: one } }, representations },
  };
}

/** An entity's history: the same shape for the three. */
function history<Params>(params: Params, noun: string) {
  return {
    params,
    query: historyQuery,
    answers: { 200: { description: `a page of the ${noun}'s changes, newest first`, body: historyPage } },
  };
}

const userShapes = versionedShapes('user', {
  params: user,
  list: userListQuery,
  create: signUpBody,
  change: userChanges,
  replace: profile,
  representations: users,
  deleted: 'deleted; the user as it was, with deletedAt and nothing personal',
});
const orderShapes = versionedShapes('order', {
  params: order,
  list: orderListQuery,
  create: createOrderBody,
  change: orderChanges,
  replace: replaceOrderBody,
  representations: orders,
  deleted: 'deleted; the order as it was, with deletedAt',
});

export const SHAPES = {
  listUsers: userShapes.list,
  getUser: userShapes.get,
  createUser: userShapes.create,
  changeUser: userShapes.change,
  replaceUser: userShapes.replace,
  deleteUser: userShapes.delete,
  userHistory: history(user, 'user'),
  exportPersonalData: {
    params: user,
    answers: {
      200: {
        description:
          'the export, as an attachment, streamed (no Content-Length; cut short, never ended, if a store fails once it started); `missing` names sections held by services in other processes',
        body: personalDataExport,
      },
    },
  },

  listOrders: orderShapes.list,
  getOrder: orderShapes.get,
  orderHistory: history(order, 'order'),
  createOrder: orderShapes.create,
  changeOrder: orderShapes.change,
  replaceOrder: orderShapes.replace,
  deleteOrder: orderShapes.delete,

  listProducts: {
    query: productListQuery,
    answers: {
      200: {
        description: 'an offset page, or a cursor page when `after` is given',
        body: z.union([offsetPageOf(productBody), cursorPageOf(productBody)]),
      },
    },
  },
  pageProducts: {
    query: productCursorQuery,
    answers: { 200: { description: 'a page; nextCursor is null on the last', body: cursorPageOf(productBody) } },
  },
  productHistory: history(product, 'product'),
  getProduct: {
    params: product,
    query: asOfQuery,
    answers: { 200: { description: 'the product (as it was at `at`, when given); its version is the ETag', body: productBody } },
  },
  createProduct: {
    body: createProductBody,
    answers: { 201: { description: 'created; Location, ETag and Event-Position are set', body: productBody } },
  },
  changeProduct: { params: product, body: productChanges, answers: { 200: { description: 'changed', body: productBody } } },
  deleteProduct: {
    params: product,
    answers: { 200: { description: 'deleted; the product as it was, with deletedAt', body: productBody } },
  },
  search: { query: searchQuery, answers: { 200: { description: 'the best matches', body: searchBody } } },

  signIn: { body: signInBody, answers: { 200: { description: 'signed in; the session cookie is set', body: sessionBody } } },
  signOut: { answers: { 204: noContent } },
  getSession: { answers: { 200: { description: 'the session', body: sessionBody } } },
  setPassword: { body: passwordBody, answers: { 204: noContent } },
  unlinkProvider: { params: { provider }, answers: { 204: noContent } },
  listProviders: { answers: { 200: { description: 'their names', body: providersBody } } },
  startProviderSignIn: {
    params: { provider },
    query: z.object({ returnTo: z.string().optional() }),
    answers: { 303: redirect("to the provider's sign-in page") },
  },
  linkProvider: {
    params: { provider },
    query: z.object({ returnTo: z.string().optional() }),
    answers: {
      200: { description: "asked for JSON: the provider's sign-in page, for the page to go to", body: providerLocationBody },
      303: redirect("to the provider's sign-in page"),
    },
  },
  providerCallback: {
    // Not strict: a provider may add parameters of its own (session_state, …).
    query: z.object({
      code: z.string().optional(),
      state: z.string().optional(),
      error: z.string().optional(),
      iss: z.string().optional(),
    }),
    answers: { 303: redirect('signed in (or linked): back to returnTo') },
  },

  streamEvents: {
    query: eventsQuery,
    answers: { 200: { description: 'a stream: id is the position, event the name, data the envelope', contentType: 'text/event-stream' } },
  },

  streamChanges: {
    query: changesQuery,
    answers: {
      200: {
        description:
          'a stream: id is a position to resume after (Last-Event-ID), event is changed, deleted, reset or ended, data is JSON (docs/api.md#live)',
        contentType: 'text/event-stream',
      },
    },
  },

  listFollowers: { answers: { 200: { description: 'each follower, and the head of the log', body: followersBody } } },
  followFollowers: {
    answers: {
      200: {
        description: 'a stream: event is followers, data is what GET /admin/followers answers, sent when it changes',
        contentType: 'text/event-stream',
      },
    },
  },
  listParked: { query: parkedQuery, answers: { 200: { description: 'a page of parked events', body: cursorPageOf(parkedEventBody) } } },
  retryParked: {
    body: retryParkedBody,
    answers: { 202: { description: 'noted: the followers try them within a second or two', body: requestedBody } },
  },
  skipParked: {
    body: skipParkedBody,
    answers: { 202: { description: 'noted, and recorded in the log: its follower skips it within a second or two', body: requestedBody } },
  },
  listStreams: { query: streamsQuery, answers: { 200: { description: 'the longest streams', body: streamsBody } } },
  readStream: {
    params: { streamId: { schema: streamId, names: 'stream' } },
    query: streamEventsQuery,
    answers: { 200: { description: 'a page of its events, oldest first', body: streamEventsBody } },
  },

  openEditor: {
    query: z.strictObject({ doc: documentId.optional() }),
    answers: { 302: redirect('to the document in the web app; Location names it') },
  },
  listDocuments: { answers: { 200: { description: 'the documents', body: documentList } } },
  createDocument: { body: newDocumentBody, answers: { 201: { description: 'the document; Location names it', body: documentSummary } } },
  getDocument: {
    params: { id: document },
    query: documentReadQuery,
    answers: { 200: { description: 'its text, version and times', body: documentText } },
  },
  getDocumentAccess: { params: { id: document }, answers: { 200: { description: 'the owner and the editors', body: accessRecord } } },
  getDocumentPeople: { params: { id: document }, answers: { 200: { description: 'the owner and the editors', body: documentPeople } } },
  shareDocument: {
    params: { id: document },
    body: shareBody,
    answers: { 200: { description: 'the owner and the editors now', body: documentPeople } },
  },
  addEditor: personAccess,
  removeEditor: personAccess,
  addViewer: personAccess,
  removeViewer: personAccess,
  listVersions: { params: { id: document }, answers: { 200: { description: 'the timeline', body: documentTimeline } } },
  nameVersion: {
    params: { id: document },
    body: nameVersionBody,
    answers: { 201: { description: 'the named version; Location is its text', body: namedVersion } },
  },
  forgetVersion: { params: { id: document, version: { schema: versionParam, names: 'named version' } }, answers: { 204: noContent } },

  openApi: { answers: { 200: file('the document', 'application/json'), 304: unchanged } },
  docsPage: { answers: { 200: html('the page') } },
  asyncApi: { answers: { 200: file('the document', 'application/json'), 304: unchanged } },
  eventsPage: { answers: { 200: file('the page', 'text/html'), 304: unchanged } },
  versioningPage: { answers: { 200: html('the page') } },
  docsAssetinitjs: { answers: { 200: file('the file', 'text/javascript'), 304: unchanged } },
  docsAssetswaggeruibundlejs: { answers: { 200: file('the file', 'text/javascript'), 304: unchanged } },
  docsAssetswaggeruicss: { answers: { 200: file('the file', 'text/css'), 304: unchanged } },

  appPage: { answers: { 200: html('the page') } },
  appScript: { answers: { 200: file('the script', 'text/javascript'), 304: unchanged } },
  appStyle: { answers: { 200: file('the style sheet', 'text/css'), 304: unchanged } },
  appChunk: {
    params: { file: { schema: z.string().regex(/^[A-Za-z0-9_-]{1,100}\.js$/), names: 'part of the web app' } },
    answers: { 200: file('the script', 'text/javascript'), 304: unchanged },
  },

  health: { answers: { 200: { description: 'it answers', body: z.strictObject({ status: z.literal('ok') }) } } },
  healthLive: { answers: { 200: healthJson('pass') } },
  healthReady: { answers: { 200: healthJson('every check passes'), 503: healthJson('a check failed: which, and why') } },
} as const satisfies { [K in OperationName]: Shape };

/** One path an operation is served at: an operation has one, a versioned one one per version. */
export interface ApiRoute {
  operation: string;
  /** Unique across the API: the operation's name, with the version for a versioned path (`getUserV1`). */
  operationId: string;
  method: Method;
  /** OpenAPI form, with its version prefix: /v1/users/{id}. */
  path: string;
  spec: Operation;
  shape: Shape;
  /** The representation this path answers with, for a versioned resource. */
  version: ApiVersion | undefined;
  deprecated: boolean;
}

const prefixOf = (version: PathVersion) => (version === 'unversioned' ? '' : `/${version}`);

/** Every path of a table of operations and their shapes, the more specific first where two could match one request. */
export function routesOf(operations: Record<string, Operation>, shapes: Record<string, Shape>): ApiRoute[] {
  const routes = Object.entries(operations).flatMap(([name, spec]) => {
    const shape = shapes[name];
    if (!shape) throw new Error(`operation ${name} has no shape`);
    return (spec.versions ?? [undefined]).map((pathVersion): ApiRoute => {
      const version = pathVersion === undefined ? undefined : pathVersion === 'unversioned' ? CURRENT_API_VERSION : pathVersion;
      return {
        operation: name,
        operationId: pathVersion === undefined || pathVersion === 'unversioned' ? name : `${name}${pathVersion.toUpperCase()}`,
        method: spec.method,
        path: `${pathVersion ? prefixOf(pathVersion) : ''}${spec.path}`,
        spec,
        shape,
        version,
        deprecated: version !== undefined && DEPRECATED_API_VERSIONS.includes(version) && pathVersion !== 'unversioned',
      };
    });
  });
  // A path with fewer parameters is the more specific: /auth/session before /auth/{provider}.
  const parameters = (route: ApiRoute) => (route.path.match(/\{/g) ?? []).length;
  return routes.sort((a, b) => parameters(a) - parameters(b));
}

export const API_ROUTES: readonly ApiRoute[] = routesOf(OPERATIONS, SHAPES);

/** An answer's body schema on a route: a versioned resource's made of the route's representation. */
export function answerBody(route: ApiRoute, answer: Answer): z.ZodType | undefined {
  if (typeof answer.body !== 'function') return answer.body;
  const schema = route.version && route.shape.representations?.schema[route.version];
  if (!schema) throw new Error(`${route.operationId}: an answer made of a representation needs one`);
  return answer.body(schema);
}

/** `/users/{id}` as Koa's router writes it: `/users/:id`. */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
