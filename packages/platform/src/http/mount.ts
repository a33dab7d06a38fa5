// Serves the route table (api/operations.ts, api/routes.ts): the one place where a path meets a
// handler. For each route it applies, from the table alone and before the handler runs: who may
// call (access), the path parameters (404 for one that names nothing), the rate limit, the query,
// the request headers (If-Match, Idempotency-Key, Last-Event-ID, and Wait-For-Position through the
// service's read consistency), the JSON body, the version's representation and its deprecation
// notice. Handlers are registered by operation name and receive what was checked: validated
// input, the signed-in user and the principal the domain's rules take.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { readCostOf, type LimitPolicy } from '@eventide/contract/limits.ts';
import type { OPERATIONS, Access, LimitName, Operation, OperationName, ServiceName } from '@eventide/contract/operations.ts';
import { API_ROUTES, routerPath, type SHAPES, type ApiRoute } from '@eventide/contract/routes.ts';
import type { PathParameter, Shape, Upload } from '@eventide/contract/shape.ts';
import { allowOf, bySpecificity, overlap, pathRegExp, templateMatcher } from '@eventide/contract/path-templates.ts';
import { isAdmin, principalOf, sessionUser, type SessionUser } from '../auth/session.ts';
import { addressKey } from '../auth/client-address.ts';
import { clientKey, limiter, type LimiterFactory } from '../auth/rate-limit.ts';
import { isSelfOrAdmin, type Principal, type UserPrincipal } from '@eventide/kernel/models/principal.ts';
import { readBody, readUpload } from './body.ts';
import type { ReadBudget } from './read-budget.ts';
import { parseIdempotencyKey, parseIfMatch, parseLastEventId } from './conditions.ts';
import type { ExpectedRevisions } from '@eventide/kernel/models/model.ts';
import { problems } from '@eventide/contract/problems.ts';
import { parseQuery } from './query.ts';
import type { ApiVersion } from '@eventide/contract/versions.ts';
import { announceDeprecation } from './versioning.ts';

type Signed<A extends Access, T> = A extends 'public' | 'signed-out' ? T | undefined : T;
type ParamsOf<S> = S extends { params: infer P extends Record<string, PathParameter> }
  ? { [K in keyof P]: P[K] extends PathParameter<infer V> ? V : never }
  : Record<string, never>;
type QueryOf<S> = S extends { query: infer Q extends z.ZodType } ? z.output<Q> : Record<string, never>;
type BodyOf<S> = S extends { body: infer B extends z.ZodType } ? z.output<B> : S extends { upload: Upload } ? Buffer : undefined;
type RepresentOf<S> = S extends { representations: { represent: infer R extends Record<ApiVersion, unknown> } } ? R[ApiVersion] : undefined;

/** What a handler receives: everything the table says the request carries, checked. */
export interface Input<O extends Operation, S> {
  ctx: Context;
  params: ParamsOf<S>;
  query: QueryOf<S>;
  body: BodyOf<S>;
  /** The signed-in user: always there unless the route is open to people who are not signed in. */
  user: Signed<O['access'], SessionUser>;
  /** The same user as the domain's rules see them. */
  principal: Signed<O['access'], UserPrincipal>;
  /** The representation this path answers with (versioned resources), and how it shows the state. */
  version: ApiVersion | undefined;
  represent: RepresentOf<S>;
  /** The path's version prefix: '' or '/v1', for Location headers. */
  prefix: string;
  ifMatch: ExpectedRevisions | undefined;
  idempotencyKey: string | undefined;
  lastEventId: number | undefined;
  /** Spends one point of a limit for this client, for what only the handler knows it does (429 once spent). */
  spend(limit: LimitName): Promise<void>;
  /**
   * Charges this client's read budget for work a read does after its handler returned (a stream
   * catching up); the handler's own time is charged by the mount. Nothing on a route that does not spend it.
   */
  chargeReads(ms: number): void;
}

type Op<K extends OperationName> = (typeof OPERATIONS)[K];
type ShapeOf<K extends OperationName> = (typeof SHAPES)[K];
export type InputOf<K extends OperationName> = Input<Op<K>, ShapeOf<K>>;
export type Handle<K extends OperationName, Extra = unknown> = (input: InputOf<K> & Extra) => Promise<void> | void;

/**
 * The finer rule of an `owner` route, declared beside its handler: what the path names, loaded
 * as the rule needs it, and the check. `check` refuses (a domain Refusal) not-found to whoever
 * may not know it exists, forbidden to one who may see it but not do this. The handler gets what
 * was loaded (`owned`), so nothing is read twice.
 */
export interface Ownership<Loaded, Owned extends Loaded = Loaded, Params = { id: string }> {
  load(params: Params): Promise<Loaded>;
  check(who: Principal, loaded: Loaded, params: Params): asserts loaded is Owned;
}

declare const operation: unique symbol;
export interface OwnedRegistration<K extends OperationName> {
  owner: Ownership<unknown, unknown, never>;
  handle: (input: InputOf<K> & { owned: never }) => Promise<void> | void;
  [operation]?: K;
}

/** An `owner` route's handler with its rule: the handler's `owned` is what the rule loaded. */
export function owned<K extends OperationName, Loaded, Owned extends Loaded>(
  owner: Ownership<Loaded, Owned, ParamsOf<ShapeOf<K>>>,
  handle: Handle<K, { owned: Owned }>,
): OwnedRegistration<K> {
  return { owner, handle } as unknown as OwnedRegistration<K>;
}

export type Registration<K extends OperationName> = Op<K>['access'] extends 'owner' ? OwnedRegistration<K> : Handle<K>;

/** A service's handlers: exactly the operations the table gives that service, no more, no fewer. */
export type Handlers<S extends ServiceName> = { [K in OperationName as Op<K>['service'] extends S ? K : never]: Registration<K> };

/** What a service brings to the HTTP app. */
export interface ServiceApiOf<S extends ServiceName> {
  service: S;
  handlers: Handlers<S>;
  /** Applied to the routes that take Wait-For-Position: waits for the read models, says where they are. */
  readConsistency?: Middleware;
}

/** Any service's: the service names which handlers it must have. */
export type ServiceApi = { [S in ServiceName]: ServiceApiOf<S> }[ServiceName];

export interface MountOptions {
  apis: ServiceApi[];
  bodyLimit: number;
  /** Where limits count, and their budgets; required when a mounted route spends one. */
  limits?: { limiters: LimiterFactory; policies: Record<LimitName, LimitPolicy> };
  /** The routes to serve; the API's unless a test gives its own. */
  routes?: readonly ApiRoute[];
  /** Each client's budget of the server's time for reads (readCostOf); none: reads are not budgeted. */
  readBudget?: ReadBudget;
}

export interface Mounted {
  router: Router;
  /** The routes served, in the order they are matched. */
  routes: ApiRoute[];
}

type AnyHandle = (input: Record<string, unknown>) => Promise<void> | void;
type AnyRegistration = AnyHandle | { owner: Ownership<unknown, unknown, Record<string, unknown>>; handle: AnyHandle };

/** Mounts every route of the given services' operations; refuses to start when a handler is missing or has no route. */
export function mountApi({ apis, bodyLimit, limits, routes = API_ROUTES, readBudget }: MountOptions): Mounted {
  const served = new Set(apis.map((api) => api.service));
  const mine = routes.filter((route) => served.has(route.spec.service));
  const operations = new Set(mine.map((route) => route.operation));
  for (const api of apis) {
    for (const name of Object.keys(api.handlers)) {
      if (!operations.has(name)) throw new Error(`the ${api.service} service has a handler for ${name}, which the table does not give it`);
    }
  }
  const limiterOf = limitersOf(limits);
  // Strict: /orders/{id}/ is not /orders/{id}, as the front door and the OpenAPI document have it (one address per resource).
  const router = new Router({ strict: true });
  for (const route of mine) {
    const api = apis.find((a) => a.service === route.spec.service)!;
    const registration = (api.handlers as unknown as Record<string, AnyRegistration>)[route.operation];
    if (!registration)
      throw new Error(`the ${api.service} service has no handler for ${route.operation} (${route.method.toUpperCase()} ${route.path})`);
    router[route.method](
      routerPath(route.path),
      serve(route, registration, {
        bodyLimit,
        limiterOf,
        readConsistency: api.readConsistency,
        shadowedBy: rivalsOf(route, mine),
        readBudget,
      }),
    );
  }
  return { router, routes: mine };
}

/**
 * The more specific paths that some of a route's paths belong to instead (path-templates.ts):
 * /auth/sign-in for /auth/{provider}. A request for one of them is not this route's, whatever
 * its method, so the router may not hand it to this route.
 */
function rivalsOf(route: ApiRoute, routes: readonly ApiRoute[]): RegExp[] {
  const rivals = new Set(
    routes
      .map((other) => other.path)
      .filter((path) => path !== route.path && overlap(path, route.path) && bySpecificity(path, route.path) < 0),
  );
  return [...rivals].map(pathRegExp);
}

/**
 * After the routes: a path the routes have, asked with a method it does not take, is 405 with
 * Allow (OPTIONS: 204 with Allow), the methods of the one path it belongs to, however many
 * patterns match it. The router's own would list /auth/{provider}'s GET for /auth/sign-in.
 */
export function allowedMethods(routes: readonly ApiRoute[]): Middleware {
  const templateOf = templateMatcher(routes.map((route) => route.path));
  const methods = new Map<string, string[]>();
  for (const route of routes) methods.set(route.path, [...(methods.get(route.path) ?? []), route.method]);
  return async (ctx, next) => {
    await next();
    if (ctx.body != null || ctx.status !== 404) return;
    const template = templateOf(ctx.path);
    if (!template) return;
    ctx.set('Allow', allowOf(methods.get(template)!));
    // OPTIONS: the Allow header is the answer (204, as the front door gives it).
    ctx.status = ctx.method === 'OPTIONS' ? 204 : 405;
  };
}

function limitersOf(limits: MountOptions['limits']) {
  const made = new Map<LimitName, (ctx: Context, user: SessionUser | undefined) => Promise<void>>();
  return (name: LimitName) => {
    if (!limits) throw new Error(`a route spends the ${name} limit, and no limiters were given`);
    let spend = made.get(name);
    if (!spend) {
      const policy = limits.policies[name];
      const counter = limiter(limits.limiters, { name, points: policy.points, duration: policy.duration, what: policy.what });
      spend = async (ctx, user) => {
        if (policy.sparesAdmins && isAdmin(user)) return;
        await counter(ctx, policy.countsBy === 'address' ? addressOf(ctx) : clientKey(ctx));
      };
      made.set(name, spend);
    }
    return spend;
  };
}

const addressOf = (ctx: Context) => `ip:${addressKey(ctx.ip)}`;

/** Refuses a caller the route's access does not admit (the `self` and `owner` parts come once the path is read). */
function admit(route: ApiRoute, user: SessionUser | undefined): void {
  const { access } = route.spec;
  if (access === 'public') return;
  if (access === 'signed-out') {
    if (user && !isAdmin(user)) throw problems.forbidden('you are signed in; sign out first (an admin may do this for someone else)');
    return;
  }
  if (!user) throw problems.unauthenticated();
  if (access === 'admin' && !isAdmin(user)) throw problems.forbidden(`only an admin may do this: ${route.spec.summary}`);
}

/** The path's parameters as their schemas make them; one that is not what it must be names nothing. */
function parseParams(shape: Shape, raw: Record<string, string>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(shape.params ?? {})) {
    const value = raw[name] ?? '';
    const parsed = parameter.schema.safeParse(value);
    if (!parsed.success) throw problems.notFound(`${parameter.names} ${JSON.stringify(value.slice(0, 64))}`);
    params[name] = parsed.data;
  }
  return params;
}

function serve(
  route: ApiRoute,
  registration: AnyRegistration,
  deps: {
    bodyLimit: number;
    limiterOf: ReturnType<typeof limitersOf>;
    readConsistency: Middleware | undefined;
    shadowedBy: RegExp[];
    readBudget: ReadBudget | undefined;
  },
): Middleware {
  const { spec, shape } = route;
  const handle = typeof registration === 'function' ? registration : registration.handle;
  const owner: Ownership<unknown, unknown, Record<string, unknown>> | undefined =
    typeof registration === 'function' ? undefined : registration.owner;
  if ((spec.access === 'owner') !== (owner !== undefined)) {
    throw new Error(`${route.operationId}: an owner route needs an ownership rule beside its handler, and only an owner route takes one`);
  }
  const headers = new Set(spec.headers ?? []);
  const consistency = headers.has('Wait-For-Position') ? deps.readConsistency : undefined;
  if (headers.has('Wait-For-Position') && !consistency)
    throw new Error(`${route.operationId} takes Wait-For-Position: its service must give readConsistency`);
  const spend = spec.limit && spec.limitSpent !== 'by-handler' ? deps.limiterOf(spec.limit) : undefined;
  const readCost = deps.readBudget ? readCostOf(spec) : undefined;
  const budget = readCost === undefined ? undefined : deps.readBudget;
  // A read declared costly is charged what its handler took; another only its reservation: its
  // time under load is mostly the wait for others' work, which is not its cost.
  const measured = budget !== undefined && spec.readCost !== undefined;
  const represent = route.version ? shape.representations?.represent[route.version] : undefined;
  const prefix = route.path.slice(0, route.path.length - spec.path.length);

  return async (ctx, next) => {
    // A path a more specific route owns is not this one's: on to the next route, or to 405.
    if (deps.shadowedBy.some((rival) => rival.test(ctx.path))) return next();
    // First, so that a refusal carries the notice too.
    if (route.deprecated) announceDeprecation(ctx);
    const user = sessionUser(ctx);
    admit(route, user);
    const params = parseParams(shape, ctx.params as Record<string, string>);
    const principal = user ? principalOf(user) : undefined;
    if (spec.access === 'self' && !isSelfOrAdmin(principal!, String(params.id))) throw problems.notFound(`user ${String(params.id)}`);
    if (spend) await spend(ctx, user);
    // Who the read budget counts for, only where a route spends it: writes and pages do not pay for the lookup.
    const client = budget ? clientKey(ctx) : '';
    if (budget) await budget.reserve(client, readCost!);
    const input: Record<string, unknown> = {
      spend: (limit: LimitName) => deps.limiterOf(limit)(ctx, user),
      chargeReads: (ms: number) => budget?.charge(client, ms),
      ctx,
      params,
      query: shape.query ? parseQuery(ctx, shape.query) : {},
      user,
      principal,
      version: route.version,
      represent,
      prefix,
      ifMatch: headers.has('If-Match') ? parseIfMatch(ctx) : undefined,
      idempotencyKey: headers.has('Idempotency-Key') ? parseIdempotencyKey(ctx) : undefined,
      lastEventId: headers.has('Last-Event-ID') ? parseLastEventId(ctx) : undefined,
    };
    const run = async () => {
      // What the path names is checked before the body is read: to whoever may not know it
      // exists, it answers as absent whatever was sent.
      if (owner) {
        const rule: Ownership<unknown, unknown, Record<string, unknown>> = owner;
        const loaded = await rule.load(params);
        rule.check(input.principal as Principal, loaded, params);
        input.owned = loaded;
      }
      input.body = shape.body
        ? await readBody(ctx, shape.body, deps.bodyLimit)
        : shape.upload
          ? await readUpload(ctx, shape.upload)
          : undefined;
      // The read's own time, not its wait for the read models (Wait-For-Position), is charged.
      if (!measured) return handle(input);
      const started = performance.now();
      try {
        await handle(input);
      } finally {
        budget.charge(client, performance.now() - started - readCost!);
      }
    };
    if (consistency) await consistency(ctx, run);
    else await run();
  };
}
