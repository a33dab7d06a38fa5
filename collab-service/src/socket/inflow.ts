// How fast one connection's messages are read: at most `perSecond` on average (a token bucket
// holding one second's worth) and at most `maxInFlight` being handled at once. Beyond either,
// the socket is paused, so a flood waits in TCP's buffers, at the sender's cost rather than in
// our memory, and an honest client that merely types fast gets no error, only a little delay.

export interface InflowOptions {
  perSecond: number;
  maxInFlight: number;
  clock?: () => number;
}

export interface Pausable {
  pause(): void;
  resume(): void;
}

export class Inflow {
  private readonly socket: Pausable;
  private readonly options: InflowOptions;
  private readonly clock: () => number;
  private tokens: number;
  private updatedAt: number;
  private inFlight = 0;
  private paused = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(socket: Pausable, options: InflowOptions) {
    this.socket = socket;
    this.options = options;
    this.clock = options.clock ?? Date.now;
    this.tokens = options.perSecond;
    this.updatedAt = this.clock();
  }

  /** Counts a message that was read; call the result once it has been handled. */
  admit(): () => void {
    this.refill();
    this.tokens -= 1;
    this.inFlight += 1;
    this.check();
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
    if (this.timer) clearTimeout(this.timer);
  }

  private check(): void {
    if (this.closed) return;
    this.refill();
    const overRate = this.tokens < 1;
    const overLoad = this.inFlight >= this.options.maxInFlight;
    if (overRate || overLoad) {
      if (!this.paused) {
        this.paused = true;
        this.socket.pause();
      }
      if (overRate && !this.timer) {
        this.timer = setTimeout(
          () => {
            this.timer = undefined;
            this.check();
          },
          Math.ceil(((1 - this.tokens) / this.options.perSecond) * 1000),
        );
      }
      return;
    }
    if (this.paused) {
      this.paused = false;
      this.socket.resume();
    }
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.options.perSecond, this.tokens + ((now - this.updatedAt) / 1000) * this.options.perSecond);
    this.updatedAt = now;
  }
}
