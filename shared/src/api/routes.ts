// Every route the services serve, once: method, path, who may call it, what it takes (path
// parameters, query, body, headers) and what it answers, with the zod schemas the services
// validate with. The OpenAPI document (openapi.ts) and the typed client (../client) derive from
// it, and a test fails when a router serves a route this list lacks, or the other way round.
import { z } from 'zod';
import { passwordBody, providerLocationBody, providersBody, sessionBody, signInBody } from './auth.ts';
import { cursorPageOf, offsetPageOf } from './common.ts';
import {
  accessRecord as documentAccess,
  documentList,
  documentPeople,
  documentReadQuery,
  documentSummary,
  documentText,
  newDocumentBody,
  shareBody,
} from './documents.ts';
import { eventsQuery } from './events.ts';
import { createOrderBody, orderChanges, orderListQuery, orderV1Body, orderV2Body, replaceOrderBody } from './orders.ts';
import { createProductBody, productBody, productChanges, productCursorQuery, productListQuery } from './products.ts';
import { searchBody, searchQuery } from './search.ts';
import { personalDataExport } from './personal-data.ts';
import { profile, signUpBody, userChanges, userListQuery, userV1Body, userV2Body } from './users.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: anyone; a signed-in user; the entity's owner or an admin; an admin only. */
export type Access = 'public' | 'signed-in' | 'owner' | 'admin';

/** Request headers a route reads, beyond the session cookie. */
export type RequestHeader = 'If-Match' | 'Idempotency-Key' | 'Wait-For-Position' | 'Last-Event-ID';

export interface Answer {
  description: string;
  body?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
}

export interface ApiRoute {
  /** Unique; the typed client's method name. */
  operationId: string;
  method: Method;
  /** OpenAPI form: /users/{id}. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: z.ZodObject;
  body?: z.ZodType;
  headers?: RequestHeader[];
  /** Success answers by status; refusals are problem documents (docs/errors.md). */
  answers: Record<number, Answer>;
  deprecated?: boolean;
}

const write: RequestHeader[] = ['If-Match', 'Idempotency-Key'];
const read: RequestHeader[] = ['Wait-For-Position'];
const html = (description: string): Answer => ({ description, contentType: 'text/html' });
const redirect = (description: string): Answer => ({ description });
const noContent: Answer = { description: 'done; no body' };

/** The three forms of a versioned resource (docs/api.md#versioning); see mountVersioned. */
function versioned(options: {
  resource: 'users' | 'orders';
  one: string;
  createSummary: string;
  tag: string;
  access: { list: Access; create: Access; one: Access };
  listQuery: z.ZodObject;
  createBody: z.ZodType;
  changeBody: z.ZodType;
  replaceBody: z.ZodType;
  v2: z.ZodType;
  v1: z.ZodType;
}): ApiRoute[] {
  const { resource, one, tag, access } = options;
  const noun = `a${one === 'Order' ? 'n' : ''} ${one.toLowerCase()}`;
  const name = (verb: string, version: string) => `${verb}${one}${version.toUpperCase()}`;
  const routes: ApiRoute[] = [];
  for (const [prefix, version, body] of [
    ['', '', options.v2],
    ['/v2', 'v2', options.v2],
    ['/v1', 'v1', options.v1],
  ] as const) {
    const deprecated = version === 'v1' ? { deprecated: true } : {};
    const base = `${prefix}/${resource}`;
    routes.push(
      {
        operationId: `list${one}s${version.toUpperCase()}`,
        method: 'get',
        path: base,
        summary: `List ${resource} (offset pages)`,
        tag,
        access: access.list,
        query: options.listQuery,
        headers: read,
        answers: { 200: { description: `a page of ${resource}`, body: offsetPageOf(body) } },
        ...deprecated,
      },
      {
        operationId: name('get', version),
        method: 'get',
        path: `${base}/{id}`,
        summary: `Read ${noun}`,
        tag,
        access: access.one,
        headers: read,
        answers: { 200: { description: 'the entity; its version is the ETag', body } },
        ...deprecated,
      },
      {
        operationId: name('create', version),
        method: 'post',
        path: base,
        summary: options.createSummary,
        tag,
        access: access.create,
        body: options.createBody,
        headers: ['Idempotency-Key'],
        answers: { 201: { description: 'created; Location, ETag and Event-Position are set', body } },
        ...deprecated,
      },
      {
        operationId: name('delete', version),
        method: 'delete',
        path: `${base}/{id}`,
        summary: `Delete ${noun}`,
        tag,
        access: access.one,
        headers: write,
        answers: { 200: { description: 'deleted; the entity as it was, with deletedAt', body } },
        ...deprecated,
      },
    );
    if (version === '') {
      routes.push({
        operationId: `change${one}`,
        method: 'patch',
        path: `${base}/{id}`,
        summary: `Change some fields of ${noun}`,
        tag,
        access: access.one,
        body: options.changeBody,
        headers: write,
        answers: { 200: { description: 'changed; the new ETag and Event-Position are set', body } },
      });
    } else {
      routes.push({
        operationId: name('replace', version),
        method: 'put',
        path: `${base}/{id}`,
        summary: `Replace ${noun} (every field)`,
        tag,
        access: access.one,
        body: options.replaceBody,
        headers: write,
        answers: { 200: { description: 'replaced; the new ETag and Event-Position are set', body } },
        ...deprecated,
      });
    }
  }
  return routes;
}

const product: ApiRoute[] = [
  {
    operationId: 'listProducts',
    method: 'get',
    path: '/products',
    summary: 'List products, newest first (offset pages, or cursor pages with after)',
    tag: 'products',
    access: 'public',
    query: productListQuery,
    headers: read,
    answers: {
      200: {
        description: 'an offset page, or a cursor page when `after` is given',
        body: z.union([offsetPageOf(productBody), cursorPageOf(productBody)]),
      },
    },
  },
  {
    operationId: 'pageProducts',
    method: 'get',
    path: '/api/products',
    summary: 'List products, newest first, by cursor',
    tag: 'products',
    access: 'public',
    query: productCursorQuery,
    headers: read,
    answers: { 200: { description: 'a page; nextCursor is null on the last', body: cursorPageOf(productBody) } },
  },
  {
    operationId: 'getProduct',
    method: 'get',
    path: '/products/{id}',
    summary: 'Read one product',
    tag: 'products',
    access: 'public',
    headers: read,
    answers: { 200: { description: 'the product; its version is the ETag', body: productBody } },
  },
  {
    operationId: 'createProduct',
    method: 'post',
    path: '/products',
    summary: 'Create a product',
    tag: 'products',
    access: 'admin',
    body: createProductBody,
    headers: ['Idempotency-Key'],
    answers: { 201: { description: 'created; Location, ETag and Event-Position are set', body: productBody } },
  },
  {
    operationId: 'changeProduct',
    method: 'patch',
    path: '/products/{id}',
    summary: 'Change some fields of a product',
    tag: 'products',
    access: 'admin',
    body: productChanges,
    headers: write,
    answers: { 200: { description: 'changed', body: productBody } },
  },
  {
    operationId: 'deleteProduct',
    method: 'delete',
    path: '/products/{id}',
    summary: 'Delete a product',
    tag: 'products',
    access: 'admin',
    headers: write,
    answers: { 200: { description: 'deleted; the product as it was, with deletedAt', body: productBody } },
  },
  {
    operationId: 'search',
    method: 'get',
    path: '/search',
    summary: 'Search products by name and description, best match first',
    tag: 'products',
    access: 'public',
    query: searchQuery,
    headers: read,
    answers: { 200: { description: 'the best matches', body: searchBody } },
  },
];

const provider = 'the provider, as configured (docs/auth.md)';
const auth: ApiRoute[] = [
  {
    operationId: 'signIn',
    method: 'post',
    path: '/auth/sign-in',
    summary: 'Sign in with an email and a password',
    tag: 'auth',
    access: 'public',
    body: signInBody,
    answers: { 200: { description: 'signed in; the session cookie is set', body: sessionBody } },
  },
  {
    operationId: 'signOut',
    method: 'post',
    path: '/auth/sign-out',
    summary: 'Sign out',
    tag: 'auth',
    access: 'public',
    answers: { 204: noContent },
  },
  {
    operationId: 'getSession',
    method: 'get',
    path: '/auth/session',
    summary: 'The session: who is signed in, until when, and their sign-in methods',
    tag: 'auth',
    access: 'signed-in',
    answers: { 200: { description: 'the session', body: sessionBody } },
  },
  {
    operationId: 'setPassword',
    method: 'put',
    path: '/auth/password',
    summary: 'Set or change the password',
    tag: 'auth',
    access: 'signed-in',
    body: passwordBody,
    answers: { 204: noContent },
  },
  {
    operationId: 'unlinkProvider',
    method: 'delete',
    path: '/auth/identities/{provider}',
    summary: `Unlink a provider from the account (${provider})`,
    tag: 'auth',
    access: 'signed-in',
    answers: { 204: noContent },
  },
  {
    operationId: 'listProviders',
    method: 'get',
    path: '/auth/providers',
    summary: 'The identity providers one may sign in with',
    tag: 'auth',
    access: 'public',
    answers: { 200: { description: 'their names', body: providersBody } },
  },
  {
    operationId: 'startProviderSignIn',
    method: 'get',
    path: '/auth/{provider}',
    summary: `Sign in with a provider: redirects to it (${provider}); ?returnTo= a path of this site`,
    tag: 'auth',
    access: 'public',
    query: z.object({ returnTo: z.string().optional() }),
    answers: { 303: redirect("to the provider's sign-in page") },
  },
  {
    operationId: 'linkProvider',
    method: 'post',
    path: '/auth/{provider}/link',
    summary: `Link a provider to the signed-in account: redirects to it (${provider}), or with Accept: application/json says where to go`,
    tag: 'auth',
    access: 'signed-in',
    query: z.object({ returnTo: z.string().optional() }),
    answers: {
      200: { description: "asked for JSON: the provider's sign-in page, for the page to go to", body: providerLocationBody },
      303: redirect("to the provider's sign-in page"),
    },
  },
  {
    operationId: 'providerCallback',
    method: 'get',
    path: '/auth/callback',
    summary: 'Where the provider sends the browser back (OAuth 2 authorization code)',
    tag: 'auth',
    access: 'public',
    query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
    answers: { 303: redirect('signed in (or linked): back to returnTo') },
  },
];

const personalData: ApiRoute[] = [
  {
    operationId: 'exportPersonalData',
    method: 'get',
    path: '/users/{id}/export',
    summary: 'Download everything the system holds about a user, as one JSON document (docs/privacy.md#export)',
    tag: 'users',
    access: 'owner',
    answers: {
      200: {
        description: 'the export, as an attachment; `missing` names sections held by services in other processes',
        body: personalDataExport,
      },
    },
  },
];

const events: ApiRoute[] = [
  {
    operationId: 'streamEvents',
    method: 'get',
    path: '/events',
    summary: 'The public events as server-sent events, from a position (docs/events.md)',
    tag: 'events',
    access: 'admin',
    query: eventsQuery,
    headers: ['Last-Event-ID'],
    answers: { 200: { description: 'a stream: id is the position, event the name, data the envelope', contentType: 'text/event-stream' } },
  },
];

const documents: ApiRoute[] = [
  {
    operationId: 'openEditor',
    method: 'get',
    path: '/collab/editor',
    summary: 'The collaborative editor page (?doc=)',
    tag: 'documents',
    access: 'public',
    answers: { 200: html('the page') },
  },
  {
    operationId: 'editorScript',
    method: 'get',
    path: '/collab/editor.js',
    summary: "The editor page's script",
    tag: 'documents',
    access: 'public',
    answers: { 200: { description: 'the script', contentType: 'text/javascript' } },
  },
  {
    operationId: 'editorStyle',
    method: 'get',
    path: '/collab/editor.css',
    summary: "The editor page's style sheet",
    tag: 'documents',
    access: 'public',
    answers: { 200: { description: 'the style sheet', contentType: 'text/css' } },
  },
  {
    operationId: 'listDocuments',
    method: 'get',
    path: '/collab/documents',
    summary: 'The documents the caller owns or edits, the most recently changed first (at most 500)',
    tag: 'documents',
    access: 'signed-in',
    answers: { 200: { description: 'the documents', body: documentList } },
  },
  {
    operationId: 'createDocument',
    method: 'post',
    path: '/collab/documents',
    summary: 'A new, empty document owned by the caller, under an id the server chooses',
    tag: 'documents',
    access: 'signed-in',
    body: newDocumentBody,
    answers: { 201: { description: 'the document; Location names it', body: documentSummary } },
  },
  {
    operationId: 'getDocument',
    method: 'get',
    path: '/collab/documents/{id}',
    summary: 'A document now, at a version (?version=) or at a time (?at=)',
    tag: 'documents',
    access: 'owner',
    query: documentReadQuery,
    answers: { 200: { description: 'its text, version and times', body: documentText } },
  },
  {
    operationId: 'getDocumentAccess',
    method: 'get',
    path: '/collab/documents/{id}/access',
    summary: 'Who may edit a document',
    tag: 'documents',
    access: 'owner',
    answers: { 200: { description: 'the owner and the editors', body: documentAccess } },
  },
  {
    operationId: 'getDocumentPeople',
    method: 'get',
    path: '/collab/documents/{id}/people',
    summary: 'The owner and editors of a document, by name',
    tag: 'documents',
    access: 'owner',
    answers: { 200: { description: 'the owner and the editors', body: documentPeople } },
  },
  {
    operationId: 'shareDocument',
    method: 'post',
    path: '/collab/documents/{id}/editors',
    summary: 'Let someone edit a document, named by the email of their account or by name among the people the caller shares with',
    tag: 'documents',
    access: 'owner',
    body: shareBody,
    answers: { 200: { description: 'the owner and the editors now', body: documentPeople } },
  },
  {
    operationId: 'addEditor',
    method: 'put',
    path: '/collab/documents/{id}/editors/{userId}',
    summary: 'Let a user edit a document',
    tag: 'documents',
    access: 'owner',
    answers: { 200: { description: 'the access record now', body: documentAccess } },
  },
  {
    operationId: 'removeEditor',
    method: 'delete',
    path: '/collab/documents/{id}/editors/{userId}',
    summary: 'Withdraw a user’s right to edit a document',
    tag: 'documents',
    access: 'owner',
    answers: { 200: { description: 'the access record now', body: documentAccess } },
  },
];

const docs: ApiRoute[] = [
  {
    operationId: 'openApi',
    method: 'get',
    path: '/openapi.json',
    summary: 'This description, as OpenAPI 3.1',
    tag: 'docs',
    access: 'public',
    answers: { 200: { description: 'the document', contentType: 'application/json' } },
  },
  {
    operationId: 'docsPage',
    method: 'get',
    path: '/docs',
    summary: 'This description, readable',
    tag: 'docs',
    access: 'public',
    answers: { 200: html('the page') },
  },
  {
    operationId: 'versioningPage',
    method: 'get',
    path: '/docs/versioning',
    summary: 'What changes between API versions, and when v1 ends',
    tag: 'docs',
    access: 'public',
    answers: { 200: html('the page') },
  },
  ...['init.js', 'swagger-ui-bundle.js', 'swagger-ui.css'].map(
    (file): ApiRoute => ({
      operationId: `docsAsset${file.replace(/[^a-z]/gi, '')}`,
      method: 'get',
      path: `/docs/${file}`,
      summary: `A file of the /docs page (${file})`,
      tag: 'docs',
      access: 'public',
      answers: { 200: { description: 'the file', contentType: file.endsWith('.css') ? 'text/css' : 'text/javascript' } },
    }),
  ),
];

/** The web app's page and files (the app routes in the URL's fragment, so no route per page). */
const app: ApiRoute[] = [
  {
    operationId: 'appPage',
    method: 'get',
    path: '/',
    summary: 'The web app',
    tag: 'app',
    access: 'public',
    answers: { 200: html('the page') },
  },
  {
    operationId: 'appScript',
    method: 'get',
    path: '/app.js',
    summary: "The web app's script",
    tag: 'app',
    access: 'public',
    answers: { 200: { description: 'the script', contentType: 'text/javascript' }, 304: { description: 'unchanged since the ETag sent' } },
  },
  {
    operationId: 'appStyle',
    method: 'get',
    path: '/app.css',
    summary: "The web app's style sheet",
    tag: 'app',
    access: 'public',
    answers: { 200: { description: 'the style sheet', contentType: 'text/css' }, 304: { description: 'unchanged since the ETag sent' } },
  },
];

export const API_ROUTES: readonly ApiRoute[] = [
  ...versioned({
    resource: 'users',
    one: 'User',
    createSummary: 'Sign up: create a user (with a password to sign in with, if given)',
    tag: 'users',
    access: { list: 'admin', create: 'public', one: 'owner' },
    listQuery: userListQuery,
    createBody: signUpBody,
    changeBody: userChanges,
    replaceBody: profile,
    v2: userV2Body,
    v1: userV1Body,
  }),
  ...versioned({
    resource: 'orders',
    one: 'Order',
    createSummary: 'Create an order (a draft)',
    tag: 'orders',
    access: { list: 'signed-in', create: 'signed-in', one: 'owner' },
    listQuery: orderListQuery,
    createBody: createOrderBody,
    changeBody: orderChanges,
    replaceBody: replaceOrderBody,
    v2: orderV2Body,
    v1: orderV1Body,
  }),
  ...personalData,
  ...product,
  ...auth,
  ...events,
  ...documents,
  ...docs,
  ...app,
];

/** `/users/{id}` as Koa's router writes it: `/users/:id`. */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
