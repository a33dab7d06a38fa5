// What each operation of operations.ts takes and answers: its path parameters, query and body as
// zod schemas (the mount validates with them), its answers, and for a versioned resource each
// version's representation, declared by each resource beside its operations
// (resources/<resource>/shapes.ts). API_ROUTES puts the two halves together, one route per path a
// version is served under: what http/mount.ts serves, openapi.ts describes (and every test reply is checked against: infra/test/setup/openapi-conformance.ts).
import type { z } from 'zod';
import { AUTH_SHAPES } from './resources/auth/shapes.ts';
import { DOCUMENT_SHAPES } from './resources/documents/shapes.ts';
import { LIVE_SHAPES } from './resources/live/shapes.ts';
import { OPERATOR_SHAPES } from './resources/operator/shapes.ts';
import { ORDER_SHAPES } from './resources/orders/shapes.ts';
import { PRODUCT_SHAPES } from './resources/products/shapes.ts';
import { SITE_SHAPES } from './resources/site/shapes.ts';
import { USER_SHAPES } from './resources/users/shapes.ts';
import { WEBHOOK_SHAPES } from './resources/webhooks/shapes.ts';
import { CURRENT_API_VERSION, DEPRECATED_API_VERSIONS, type ApiVersion } from './versions.ts';
import { OPERATIONS, type Method, type Operation, type OperationName, type PathVersion } from './operations.ts';
import type { Answer, Shape } from './shape.ts';

export const SHAPES = {
  ...USER_SHAPES,
  ...ORDER_SHAPES,
  ...PRODUCT_SHAPES,
  ...AUTH_SHAPES,
  ...LIVE_SHAPES,
  ...OPERATOR_SHAPES,
  ...WEBHOOK_SHAPES,
  ...DOCUMENT_SHAPES,
  ...SITE_SHAPES,
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
