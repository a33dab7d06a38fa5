// How the event store's contracts (contract.ts and the *.contract.ts beside it) hold a store for
// a test, and wait for a subscription without hanging.
import type { EventStore } from './port.ts';

export interface EventStoreHarness {
  store: EventStore;
  /** Whether appendInOrder writes all of its appends or none (else it may leave the ones before a failure). */
  allOrNone: boolean;
  /** Closes the store and opens it again on the same data; absent for adapters that cannot. */
  reopen?: () => Promise<EventStore>;
  dispose: () => Promise<void>;
}

/** A test's store, opened for it and disposed of whatever happens: `withStore(body)` for each contract. */
export function storesOf(open: () => Promise<EventStoreHarness>) {
  return async function withStore<T>(body: (h: EventStoreHarness) => Promise<T>): Promise<T> {
    const harness = await open();
    try {
      return await body(harness);
    } finally {
      await harness.dispose();
    }
  };
}

/** Fails the test instead of hanging when a subscription never delivers. */
export function within<T>(promise: Promise<T>, ms = 10_000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms).unref()),
  ]);
}
