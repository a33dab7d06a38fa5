// The op rate of one connection: a token bucket. An op over the rate waits for its token (the
// client just sees a slower ack), so a well-behaved editor never loses an edit to the limit;
// a client that queues more than a burst's worth is refused.
import { collabErrors } from './errors.ts';

export interface ThrottleOptions {
  perSecond: number;
  burst: number;
  clock?: () => number;
}

export class OpThrottle {
  private tokens: number;
  private updatedAt: number;
  private waiting = 0;
  private tail: Promise<void> = Promise.resolve();
  private readonly clock: () => number;

  private readonly options: ThrottleOptions;

  constructor(options: ThrottleOptions) {
    this.options = options;
    this.clock = options.clock ?? Date.now;
    this.tokens = options.burst;
    this.updatedAt = this.clock();
  }

  /** Resolves when the op may go on, in arrival order; rejects when too many already wait. */
  take(): Promise<void> {
    this.refill();
    if (this.waiting === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    if (this.waiting >= this.options.burst) return Promise.reject(collabErrors.rateLimited());
    this.waiting += 1;
    const turn = this.tail.then(async () => {
      this.refill();
      if (this.tokens < 1) await new Promise((resolve) => setTimeout(resolve, ((1 - this.tokens) / this.options.perSecond) * 1000));
      this.refill();
      this.tokens -= 1;
      this.waiting -= 1;
    });
    this.tail = turn;
    return turn;
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.options.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.options.perSecond);
    this.updatedAt = now;
  }
}
