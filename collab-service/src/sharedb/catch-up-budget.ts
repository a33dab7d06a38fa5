// How many ops one connection may make the server read and send to catch it up: `capacity` ops
// per window of the length in which `perMinute` would add up to `capacity` (rate-limiter-flexible,
// a fixed window). Subscribing or fetching from a version, or submitting an op made at a version,
// costs the ops committed since. An editor that stays subscribed spends a few per op; one that
// asks for the same history again and again soon has to reload the document instead
// (ERR_TOO_FAR_BEHIND), which costs one snapshot.
import { spend } from '@eventide/platform/auth/rate-limit.ts';
import { RateLimiterMemory } from '@eventide/platform/auth/limiter-classes.ts';

export interface CatchUpBudgetOptions {
  capacity: number;
  perMinute: number;
}

/** One budget per connection, so one key. */
const CONNECTION = 'connection';

export class CatchUpBudget {
  private readonly limiter: RateLimiterMemory;

  constructor(options: CatchUpBudgetOptions) {
    this.limiter = new RateLimiterMemory({ points: options.capacity, duration: (options.capacity / options.perMinute) * 60 });
  }

  /**
   * Spends `ops` if that many are left, else false. The points are taken first and a refusal gives
   * them back: two requests at once can never both fit in what only one fits in (one checked
   * between the two steps may be refused though it would fit), and a request too big for what is
   * left does not also spend the rest (the client reloads and goes on editing).
   */
  async spend(ops: number): Promise<boolean> {
    if (ops <= 0) return true;
    const { ok } = await spend(this.limiter, CONNECTION, ops);
    if (ok) return true;
    const given = await this.limiter.reward(CONNECTION, ops);
    // The window ended in between: the reward opened a new one below zero, which is no budget to grant.
    if (given.consumedPoints < 0) await this.limiter.delete(CONNECTION);
    return false;
  }
}
