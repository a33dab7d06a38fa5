// How fast one connection's messages are read: at most `perSecond` a second (rate-limiter-flexible,
// a one-second window) and at most `maxInFlight` being handled at once. Beyond either, the socket
// is paused, so a flood waits in TCP's buffers, at the sender's cost rather than in our memory, and
// an honest client that merely types fast gets no error, only a little delay. A message over the
// rate has already been read: it is handled, and reading resumes when the window ends.
import { spend } from '@eventide/platform/auth/rate-limit.ts';
import { RateLimiterMemory } from '@eventide/platform/auth/limiter-classes.ts';

export interface InflowOptions {
  perSecond: number;
  maxInFlight: number;
}

export interface Pausable {
  pause(): void;
  resume(): void;
}

/** One counter per connection, so one key. */
const CONNECTION = 'connection';

export class Inflow {
  private readonly socket: Pausable;
  private readonly maxInFlight: number;
  private readonly rate: RateLimiterMemory;
  private inFlight = 0;
  private paused = false;
  /** Set while the rate is spent: it resumes reading (if the load allows) when the window ends. */
  private overRate: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(socket: Pausable, options: InflowOptions) {
    this.socket = socket;
    this.maxInFlight = options.maxInFlight;
    this.rate = new RateLimiterMemory({ points: options.perSecond, duration: 1 });
  }

  /** Counts a message that was read; call the result once it has been handled. */
  admit(): () => void {
    this.inFlight += 1;
    this.check();
    void spend(this.rate, CONNECTION).then(({ ok, res }) => ok || this.holdFor(res.msBeforeNext));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      this.check();
    };
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.overRate);
  }

  private holdFor(ms: number): void {
    if (this.closed || this.overRate) return;
    this.overRate = setTimeout(() => {
      this.overRate = undefined;
      this.check();
    }, ms);
    this.check();
  }

  private check(): void {
    if (this.closed) return;
    const hold = this.overRate !== undefined || this.inFlight >= this.maxInFlight;
    if (hold === this.paused) return;
    this.paused = hold;
    if (hold) this.socket.pause();
    else this.socket.resume();
  }
}
