// API versions: v2 is current (and what the unversioned paths serve); v1 is deprecated.
// docs/api.md#versioning says what differs; the route table (operations.ts) says which operations
// each version serves, and the mount (http/versioning.ts) announces the deprecation on each v1 answer.

export type ApiVersion = 'v1' | 'v2';

/** The version the unversioned paths serve, and the ones that are deprecated. */
export const CURRENT_API_VERSION: ApiVersion = 'v2';
export const DEPRECATED_API_VERSIONS: readonly ApiVersion[] = ['v1'];

/** When v1 was deprecated and when it will stop answering. */
export const V1_DEPRECATED_AT = new Date('2026-11-20T00:00:00Z');
export const V1_SUNSET_AT = new Date('2027-06-30T00:00:00Z');
