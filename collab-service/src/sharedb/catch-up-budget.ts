// How many ops one connection may make the server read and send to catch it up: a token bucket
// of `capacity` ops refilled at `perMinute`. Subscribing or fetching from a version, or
// submitting an op made at a version, costs the ops committed since. An editor that stays
// subscribed spends a few per op; one that asks for the same history again and again soon has
// to reload the document instead (ERR_TOO_FAR_BEHIND), which costs one snapshot.
export interface CatchUpBudgetOptions {
  capacity: number;
  perMinute: number;
  clock?: () => number;
}

export class CatchUpBudget {
  private readonly options: CatchUpBudgetOptions;
  private readonly clock: () => number;
  private tokens: number;
  private updatedAt: number;

  constructor(options: CatchUpBudgetOptions) {
    this.options = options;
    this.clock = options.clock ?? Date.now;
    this.tokens = options.capacity;
    this.updatedAt = this.clock();
  }

  /** Spends `ops` if that many are left; false (and nothing spent) otherwise. */
  spend(ops: number): boolean {
    const now = this.clock();
    this.tokens = Math.min(this.options.capacity, this.tokens + ((now - this.updatedAt) / 60_000) * this.options.perMinute);
    this.updatedAt = now;
    if (ops > this.tokens) return false;
    this.tokens -= ops;
    return true;
  }
}
