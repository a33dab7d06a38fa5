// Every operation of the API, once: which service serves it, its method and path, who may call
// it, the request headers it reads, the rate limit it spends, and the API versions it is served
// under. Mounting this table (http/mount.ts) is what serves the API: no router declares a path,
// no handler checks a role. The shapes of each operation (query, body, answers: zod schemas) are
// in routes.ts, keyed by the same names; the OpenAPI document, the typed client and the front
// door's routing derive from both. This half carries no schema code, so a browser bundle (the
// typed client) can import it.
//
// The table is written in two halves by area (operations/entities.ts, operations/site.ts); the
// shape of an entry is operation.ts.
import { ENTITY_OPERATIONS } from './operations/entities.ts';
import { SITE_OPERATIONS } from './operations/site.ts';
import type { Operation } from './operation.ts';

export type { Access, LimitName, Method, Operation, PathVersion, RequestHeader, ServiceName } from './operation.ts';

export const OPERATIONS = { ...ENTITY_OPERATIONS, ...SITE_OPERATIONS } as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
