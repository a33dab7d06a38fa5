// The ops of one connection, in line: one at a time, at most `perSecond` on average (a token
// bucket with `burst` tokens), and at most `burst` waiting. ShareDB's own client never has more
// than one op in flight per document, so an honest editor only sees a slower ack; a client that
// floods gets ERR_RATE_LIMITED for what does not fit in line. One at a time is what bounds the
// work of a connection: every op is transformed against what was committed since its version,
// and answered with those ops, and a flood of ops submitted at once would otherwise all be
// transformed against one another's commits.
import { collabErrors } from './errors.ts';

export interface OpLineOptions {
  perSecond: number;
  burst: number;
  clock?: () => number;
}

export class OpLine {
  private readonly options: OpLineOptions;
  private readonly clock: () => number;
  private tokens: number;
  private updatedAt: number;
  private busy = false;
  private readonly waiting: Array<(release: () => void) => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(options: OpLineOptions) {
    this.options = options;
    this.clock = options.clock ?? Date.now;
    this.tokens = options.burst;
    this.updatedAt = this.clock();
  }

  /** Resolves, in arrival order, when the op may go on, with the release to call once it is answered. */
  enter(): Promise<() => void> {
    if (this.waiting.length >= this.options.burst) return Promise.reject(collabErrors.rateLimited());
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.pump();
    });
  }

  /** Drops what waits (the connection closed); nothing waiting is ever resolved after this. */
  close(): void {
    this.waiting.length = 0;
    if (this.timer) clearTimeout(this.timer);
  }

  private pump(): void {
    if (this.busy || this.timer || this.waiting.length === 0) return;
    this.refill();
    if (this.tokens < 1) {
      const waitMs = ((1 - this.tokens) / this.options.perSecond) * 1000;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, waitMs);
      return;
    }
    this.tokens -= 1;
    this.busy = true;
    let released = false;
    this.waiting.shift()!(() => {
      if (released) return;
      released = true;
      this.busy = false;
      this.pump();
    });
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.options.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.options.perSecond);
    this.updatedAt = now;
  }
}
