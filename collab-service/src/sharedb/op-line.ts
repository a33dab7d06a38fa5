// The ops of one connection, in line: one at a time, at most `perSecond` a second, and at most
// `maxWaiting` waiting. ShareDB's own client never has more than one op in flight per document,
// so an honest editor only sees a slower ack; a client that floods gets ERR_RATE_LIMITED for
// what does not fit in line. One at a time is what bounds the work of a connection: every op is
// transformed against what was committed since its version, and answered with those ops, and a
// flood of ops submitted at once would otherwise all be transformed against one another's commits.
//
// The turn is async-mutex's (first come, first served; cancel drops what waits). The rate is
// rate-limiter-flexible's queue over a one-second window: the op holding the turn waits there
// for its point, so that queue never holds more than that one op.
import { E_CANCELED, Mutex } from 'async-mutex';
import { RateLimiterMemory, RateLimiterQueue } from '@eventide/platform/auth/limiter-classes.ts';
import { collabErrors } from '../errors.ts';

export interface OpLineOptions {
  perSecond: number;
  /** Ops that may wait behind the one being handled; more are refused. */
  maxWaiting: number;
}

export class OpLine {
  private readonly turn = new Mutex();
  private readonly rate: RateLimiterQueue;
  private readonly maxWaiting: number;
  private waiting = 0;

  constructor(options: OpLineOptions) {
    this.rate = new RateLimiterQueue(new RateLimiterMemory({ points: options.perSecond, duration: 1 }));
    this.maxWaiting = options.maxWaiting;
  }

  /** Resolves, in arrival order, when the op may go on, with the release to call once it is answered. */
  async enter(): Promise<() => void> {
    // A free turn is taken at once (async-mutex hands it over synchronously): that op does not wait.
    const waits = this.turn.isLocked();
    if (waits && this.waiting >= this.maxWaiting) throw collabErrors.rateLimited();
    if (waits) this.waiting += 1;
    let release: () => void;
    try {
      release = await this.turn.acquire();
    } catch (error) {
      throw error === E_CANCELED ? collabErrors.connectionEnded() : error;
    } finally {
      if (waits) this.waiting -= 1;
    }
    try {
      await this.rate.removeTokens(1);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Drops what waits (the connection closed): each is refused, none let through. */
  close(): void {
    this.turn.cancel();
  }
}
