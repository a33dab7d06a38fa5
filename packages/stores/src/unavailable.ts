// A store's engine that cannot be reached now (down, restarting, refusing connections), as every
// adapter of a networked engine says it: the request that met it may be tried again shortly, so
// the HTTP layer answers 503 with Retry-After rather than 500, and followers try again with backoff.
export class StoreUnavailableError extends Error {
  /** Which store: the event store, the read models, … */
  readonly store: string;
  constructor(store: string, cause: unknown) {
    super(`the ${store} cannot be reached: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
    this.store = store;
  }
}
