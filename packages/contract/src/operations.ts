// Every operation of the API, once: which service serves it, its method and path, who may call
// it, the request headers it reads, the rate limit it spends, and the API versions it is served
// under. Mounting this table (http/mount.ts) is what serves the API: no router declares a path,
// no handler checks a role. The shapes of each operation (query, body, answers: zod schemas) are
// in routes.ts, keyed by the same names; the OpenAPI document, the typed client and the front
// door's routing derive from both. This half carries no schema code, so a browser bundle (the
// typed client) can import it.

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call, enforced by the mount before the handler runs:
 * - `public`: anyone;
 * - `signed-out`: anyone not signed in, and admins (signing up someone else); 403 for a signed-in user;
 * - `signed-in`: a session (401 without one);
 * - `self`: the user the path's `{id}` names, or an admin; anyone else's answers 404, as a missing one would;
 * - `owner`: the owner of what the path names, or an admin, by the rule the service registers beside
 *   the handler (the entity's model: an order's customer, a document's members); 404 to anyone who
 *   may not know it exists, 403 to one who may see it but not do this;
 * - `admin`: an admin (403 for anyone else).
 */
export type Access = 'public' | 'signed-out' | 'signed-in' | 'self' | 'owner' | 'admin';

/** The processes of a split deployment (docs/operations.md); `platform` routes are served by every process. */
export type ServiceName = 'command' | 'query' | 'collab' | 'docs' | 'web' | 'export' | 'platform';

/** Request headers a route reads, beyond the session cookie: the mount parses and checks them. */
export type RequestHeader = 'If-Match' | 'Idempotency-Key' | 'Wait-For-Position' | 'Last-Event-ID';

/** The rate limits, by name; each one's budget is declared once, in limits.ts. A route spends its `limit`; a handler may spend another when what it does calls for it (a change of address). */
export type LimitName =
  | 'search'
  | 'user-profile'
  | 'sign-up'
  | 'email-change'
  | 'account-answer'
  | 'personal-data-export'
  | 'person-lookup'
  | 'document-creation';

/**
 * Where a versioned operation is served: `unversioned` (/users) serves the current version, v2;
 * `v2` (/v2/users); `v1` (/v1/users), deprecated (versioning.ts).
 */
export type PathVersion = 'unversioned' | 'v2' | 'v1';

export interface Operation {
  service: ServiceName;
  method: Method;
  /** OpenAPI form: /users/{id}. Without its version prefix. */
  path: string;
  access: Access;
  tag: string;
  summary: string;
  headers?: readonly RequestHeader[];
  limit?: LimitName;
  /** Served under these versions, each with its own representation; absent: once, unversioned. */
  versions?: readonly PathVersion[];
}

const ALL: readonly PathVersion[] = ['unversioned', 'v2', 'v1'];
const PREFIXED: readonly PathVersion[] = ['v2', 'v1'];
const UNVERSIONED: readonly PathVersion[] = ['unversioned'];
const WRITE = ['If-Match', 'Idempotency-Key'] as const;
const READ = ['Wait-For-Position'] as const;
const provider = 'the provider, as configured (docs/auth.md)';

export const OPERATIONS = {
  // Users: the versioned resource. Sign-up is POST /users.
  listUsers: {
    service: 'query',
    method: 'get',
    path: '/users',
    access: 'admin',
    tag: 'users',
    summary: 'List users (offset pages)',
    headers: READ,
    versions: ALL,
  },
  getUser: {
    service: 'query',
    method: 'get',
    path: '/users/{id}',
    access: 'self',
    tag: 'users',
    summary: 'Read a user',
    headers: READ,
    limit: 'user-profile',
    versions: ALL,
  },
  createUser: {
    service: 'command',
    method: 'post',
    path: '/users',
    access: 'signed-out',
    tag: 'users',
    summary: 'Sign up: create a user (with a password to sign in with, if given)',
    headers: ['Idempotency-Key'],
    limit: 'sign-up',
    versions: ALL,
  },
  changeUser: {
    service: 'command',
    method: 'patch',
    path: '/users/{id}',
    access: 'self',
    tag: 'users',
    summary: 'Change some fields of a user',
    headers: WRITE,
    limit: 'user-profile',
    versions: UNVERSIONED,
  },
  replaceUser: {
    service: 'command',
    method: 'put',
    path: '/users/{id}',
    access: 'self',
    tag: 'users',
    summary: 'Replace a user (every field)',
    headers: WRITE,
    limit: 'user-profile',
    versions: PREFIXED,
  },
  deleteUser: {
    service: 'command',
    method: 'delete',
    path: '/users/{id}',
    access: 'self',
    tag: 'users',
    summary: 'Delete a user',
    headers: WRITE,
    limit: 'user-profile',
    versions: ALL,
  },
  exportPersonalData: {
    service: 'export',
    method: 'get',
    path: '/users/{id}/export',
    access: 'self',
    tag: 'users',
    summary: 'Download everything the system holds about a user, as one JSON document (docs/privacy.md#export)',
    limit: 'personal-data-export',
  },

  // Orders: versioned like users.
  listOrders: {
    service: 'query',
    method: 'get',
    path: '/orders',
    access: 'signed-in',
    tag: 'orders',
    summary: 'List orders (offset pages): your own, or anyone’s for an admin',
    headers: READ,
    versions: ALL,
  },
  getOrder: {
    service: 'query',
    method: 'get',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Read an order',
    headers: READ,
    versions: ALL,
  },
  createOrder: {
    service: 'command',
    method: 'post',
    path: '/orders',
    access: 'signed-in',
    tag: 'orders',
    summary: 'Create an order (a draft)',
    headers: ['Idempotency-Key'],
    versions: ALL,
  },
  changeOrder: {
    service: 'command',
    method: 'patch',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Change some fields of an order: its lines, or its status by a step of its life cycle',
    headers: WRITE,
    versions: UNVERSIONED,
  },
  replaceOrder: {
    service: 'command',
    method: 'put',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Replace an order (every field)',
    headers: WRITE,
    versions: PREFIXED,
  },
  deleteOrder: {
    service: 'command',
    method: 'delete',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Delete an order (a draft or a cancelled one)',
    headers: WRITE,
    versions: ALL,
  },

  // Products and search.
  listProducts: {
    service: 'query',
    method: 'get',
    path: '/products',
    access: 'public',
    tag: 'products',
    summary: 'List products, newest first (offset pages, or cursor pages with after)',
    headers: READ,
  },
  pageProducts: {
    service: 'query',
    method: 'get',
    path: '/api/products',
    access: 'public',
    tag: 'products',
    summary: 'List products, newest first, by cursor',
    headers: READ,
  },
  getProduct: {
    service: 'query',
    method: 'get',
    path: '/products/{id}',
    access: 'public',
    tag: 'products',
    summary: 'Read one product',
    headers: READ,
  },
  createProduct: {
    service: 'command',
    method: 'post',
    path: '/products',
    access: 'admin',
    tag: 'products',
    summary: 'Create a product',
    headers: ['Idempotency-Key'],
  },
  changeProduct: {
    service: 'command',
    method: 'patch',
    path: '/products/{id}',
    access: 'admin',
    tag: 'products',
    summary: 'Change some fields of a product',
    headers: WRITE,
  },
  deleteProduct: {
    service: 'command',
    method: 'delete',
    path: '/products/{id}',
    access: 'admin',
    tag: 'products',
    summary: 'Delete a product',
    headers: WRITE,
  },
  search: {
    service: 'query',
    method: 'get',
    path: '/search',
    access: 'public',
    tag: 'products',
    summary: 'Search products by name and description, best match first',
    headers: READ,
    limit: 'search',
  },

  // Sign-in.
  signIn: {
    service: 'command',
    method: 'post',
    path: '/auth/sign-in',
    access: 'public',
    tag: 'auth',
    summary: 'Sign in with an email and a password',
  },
  signOut: {
    service: 'command',
    method: 'post',
    path: '/auth/sign-out',
    access: 'public',
    tag: 'auth',
    summary: 'Sign out',
  },
  getSession: {
    service: 'command',
    method: 'get',
    path: '/auth/session',
    access: 'signed-in',
    tag: 'auth',
    summary: 'The session: who is signed in, until when, and their sign-in methods',
  },
  setPassword: {
    service: 'command',
    method: 'put',
    path: '/auth/password',
    access: 'signed-in',
    tag: 'auth',
    summary: 'Set or change the password',
  },
  unlinkProvider: {
    service: 'command',
    method: 'delete',
    path: '/auth/identities/{provider}',
    access: 'signed-in',
    tag: 'auth',
    summary: `Unlink a provider from the account (${provider})`,
  },
  listProviders: {
    service: 'command',
    method: 'get',
    path: '/auth/providers',
    access: 'public',
    tag: 'auth',
    summary: 'The identity providers one may sign in with',
  },
  startProviderSignIn: {
    service: 'command',
    method: 'get',
    path: '/auth/{provider}',
    access: 'public',
    tag: 'auth',
    summary: `Sign in with a provider: redirects to it (${provider}); ?returnTo= a path of this site`,
  },
  linkProvider: {
    service: 'command',
    method: 'post',
    path: '/auth/{provider}/link',
    access: 'signed-in',
    tag: 'auth',
    summary: `Link a provider to the signed-in account: redirects to it (${provider}), or with Accept: application/json says where to go`,
  },
  providerCallback: {
    service: 'command',
    method: 'get',
    path: '/auth/callback',
    access: 'public',
    tag: 'auth',
    summary: 'Where the provider sends the browser back (OAuth 2 authorization code)',
  },

  // The public events, for subscribers without Kafka.
  streamEvents: {
    service: 'query',
    method: 'get',
    path: '/events',
    access: 'admin',
    tag: 'events',
    summary: 'The public events as server-sent events, from a position (docs/events.md)',
    headers: ['Last-Event-ID'],
  },

  // Collaborative documents (the editing itself is the /collab WebSocket).
  openEditor: {
    service: 'collab',
    method: 'get',
    path: '/collab/editor',
    access: 'public',
    tag: 'documents',
    summary: 'The collaborative editor page (?doc=)',
  },
  editorScript: {
    service: 'collab',
    method: 'get',
    path: '/collab/editor.js',
    access: 'public',
    tag: 'documents',
    summary: "The editor page's script",
  },
  editorStyle: {
    service: 'collab',
    method: 'get',
    path: '/collab/editor.css',
    access: 'public',
    tag: 'documents',
    summary: "The editor page's style sheet",
  },
  listDocuments: {
    service: 'collab',
    method: 'get',
    path: '/collab/documents',
    access: 'signed-in',
    tag: 'documents',
    summary: 'The documents the caller owns or edits, the most recently changed first (at most 500)',
  },
  createDocument: {
    service: 'collab',
    method: 'post',
    path: '/collab/documents',
    access: 'signed-in',
    tag: 'documents',
    summary: 'A new, empty document owned by the caller, under an id the server chooses',
    limit: 'document-creation',
  },
  getDocument: {
    service: 'collab',
    method: 'get',
    path: '/collab/documents/{id}',
    access: 'owner',
    tag: 'documents',
    summary: 'A document now, at a version (?version=) or at a time (?at=): for its owner and editors',
  },
  getDocumentAccess: {
    service: 'collab',
    method: 'get',
    path: '/collab/documents/{id}/access',
    access: 'owner',
    tag: 'documents',
    summary: 'Who may edit a document: for its owner and editors',
  },
  getDocumentPeople: {
    service: 'collab',
    method: 'get',
    path: '/collab/documents/{id}/people',
    access: 'owner',
    tag: 'documents',
    summary: 'The owner and editors of a document, by name: for its owner and editors',
  },
  shareDocument: {
    service: 'collab',
    method: 'post',
    path: '/collab/documents/{id}/editors',
    access: 'owner',
    tag: 'documents',
    summary:
      'Let someone edit a document, named by the email of their account or by name among the people the caller shares with: for its owner',
    limit: 'person-lookup',
  },
  addEditor: {
    service: 'collab',
    method: 'put',
    path: '/collab/documents/{id}/editors/{userId}',
    access: 'owner',
    tag: 'documents',
    summary: 'Let a user edit a document: for its owner',
  },
  removeEditor: {
    service: 'collab',
    method: 'delete',
    path: '/collab/documents/{id}/editors/{userId}',
    access: 'owner',
    tag: 'documents',
    summary: 'Withdraw a user’s right to edit a document: for its owner',
  },

  // The API's description.
  openApi: {
    service: 'docs',
    method: 'get',
    path: '/openapi.json',
    access: 'public',
    tag: 'docs',
    summary: 'This description, as OpenAPI 3.1',
  },
  docsPage: { service: 'docs', method: 'get', path: '/docs', access: 'public', tag: 'docs', summary: 'This description, readable' },
  versioningPage: {
    service: 'docs',
    method: 'get',
    path: '/docs/versioning',
    access: 'public',
    tag: 'docs',
    summary: 'What changes between API versions, and when v1 ends',
  },
  docsAssetinitjs: {
    service: 'docs',
    method: 'get',
    path: '/docs/init.js',
    access: 'public',
    tag: 'docs',
    summary: 'A file of the /docs page (init.js)',
  },
  docsAssetswaggeruibundlejs: {
    service: 'docs',
    method: 'get',
    path: '/docs/swagger-ui-bundle.js',
    access: 'public',
    tag: 'docs',
    summary: 'A file of the /docs page (swagger-ui-bundle.js)',
  },
  docsAssetswaggeruicss: {
    service: 'docs',
    method: 'get',
    path: '/docs/swagger-ui.css',
    access: 'public',
    tag: 'docs',
    summary: 'A file of the /docs page (swagger-ui.css)',
  },

  // The web app (it routes in the URL's fragment, so no route per page).
  appPage: { service: 'web', method: 'get', path: '/', access: 'public', tag: 'app', summary: 'The web app' },
  appScript: { service: 'web', method: 'get', path: '/app.js', access: 'public', tag: 'app', summary: "The web app's script" },
  appStyle: { service: 'web', method: 'get', path: '/app.css', access: 'public', tag: 'app', summary: "The web app's style sheet" },

  // Every process: health and the probes.
  health: {
    service: 'platform',
    method: 'get',
    path: '/health',
    access: 'public',
    tag: 'health',
    summary: 'Whether the process answers (what it runs is on the operator’s metrics port: docs/operations.md#health)',
  },
  healthLive: {
    service: 'platform',
    method: 'get',
    path: '/health/live',
    access: 'public',
    tag: 'health',
    summary: 'Liveness: the process answers (no store is asked)',
  },
  healthReady: {
    service: 'platform',
    method: 'get',
    path: '/health/ready',
    access: 'public',
    tag: 'health',
    summary: 'Readiness: every store the process uses answers, and the read models are not too far behind',
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
