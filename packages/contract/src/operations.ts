// Every operation of the API, once: which service serves it, its method and path, who may call
// it, the request headers it reads, the rate limit it spends, and the API versions it is served
// under. Mounting this table (http/mount.ts) is what serves the API: no router declares a path,
// no handler checks a role. The OpenAPI document, the typed client and the front door's routing
// derive from it and from the shapes (routes.ts).
//
// Each resource declares its operations in its own folder, resources/<resource>/operations.ts,
// beside its schemas and its operations' shapes (shapes.ts); the shape of an entry is
// operation.ts. This half carries no schema code, so a browser bundle (the typed client) can
// import it.
import { AUTH_OPERATIONS } from './resources/auth/operations.ts';
import { DOCUMENT_OPERATIONS } from './resources/documents/operations.ts';
import { LIVE_OPERATIONS } from './resources/live/operations.ts';
import { OPERATOR_OPERATIONS } from './resources/operator/operations.ts';
import { ORDER_OPERATIONS } from './resources/orders/operations.ts';
import { PRODUCT_OPERATIONS } from './resources/products/operations.ts';
import { SITE_OPERATIONS } from './resources/site/operations.ts';
import { USER_OPERATIONS } from './resources/users/operations.ts';
import { WEBHOOK_OPERATIONS } from './resources/webhooks/operations.ts';
import type { Operation } from './operation.ts';

export type { Access, LimitName, Method, Operation, PathVersion, RequestHeader, ServiceName } from './operation.ts';

export const OPERATIONS = {
  ...USER_OPERATIONS,
  ...ORDER_OPERATIONS,
  ...PRODUCT_OPERATIONS,
  ...AUTH_OPERATIONS,
  ...LIVE_OPERATIONS,
  ...OPERATOR_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...DOCUMENT_OPERATIONS,
  ...SITE_OPERATIONS,
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
