// The places for exports in one process, kept by those who use them. An export holds its place
// while it is taken at a minimum rate: one taken more slowly, over its last window, is cut, and
// when every place is held a newcomer takes the place of the slowest holder that is below that
// rate. Four readers that take nothing (or a trickle) could otherwise hold every place for the
// whole deadline, renewed all day, while everyone else got 503.

export interface SlotOptions {
  /** Places in all. */
  size: number;
  /** Bytes a second an export must be taken at, over the window, once it has run that long. */
  minBytesPerSecond: number;
  /** How long the rate is measured over, and how long a new export runs before it is judged. */
  windowMs: number;
  clock?: () => number;
}

/** One export's place: what it has sent, and how to end it. */
export interface Slot {
  /** Counts bytes the client took. */
  sent(bytes: number): void;
  /** Gives the place back (the export ended, failed or was cut); twice is once. */
  release(): void;
}

interface Held {
  started: number;
  bytes: number;
  /** (time, bytes) at each look, the oldest first, none older than the window. */
  samples: Array<[number, number]>;
  cut: (why: string) => void;
}

export class ExportSlots {
  private readonly held = new Set<Held>();
  private sweep: NodeJS.Timeout | undefined;
  private readonly clock: () => number;
  private readonly options: SlotOptions;

  constructor(options: SlotOptions) {
    this.options = options;
    this.clock = options.clock ?? Date.now;
  }

  get running(): number {
    return this.held.size;
  }

  /**
   * A place for a new export, or undefined when every place is held at the minimum rate or
   * better. `cut` is called, once, if the export is later taken too slowly.
   */
  take(cut: (why: string) => void): Slot | undefined {
    if (this.held.size >= this.options.size) {
      const slowest = this.slowestBelowMinimum();
      if (!slowest) return undefined;
      this.end(slowest, 'another export needed its place');
    }
    const now = this.clock();
    const held: Held = { started: now, bytes: 0, samples: [[now, 0]], cut };
    this.held.add(held);
    this.startSweeping();
    return {
      sent: (bytes) => {
        held.bytes += bytes;
      },
      release: () => {
        this.held.delete(held);
        if (this.held.size === 0) this.stopSweeping();
      },
    };
  }

  /** Bytes a second over the last window, or undefined for an export younger than the window. */
  private rateOf(held: Held, now: number): number | undefined {
    if (now - held.started < this.options.windowMs) return undefined;
    while (held.samples.length > 1 && now - (held.samples[1]?.[0] ?? now) >= this.options.windowMs) held.samples.shift();
    const [since, bytesThen] = held.samples[0] ?? [now, held.bytes];
    return now === since ? undefined : ((held.bytes - bytesThen) * 1000) / (now - since);
  }

  private slowestBelowMinimum(): Held | undefined {
    const now = this.clock();
    let slowest: Held | undefined;
    let slowestRate = this.options.minBytesPerSecond;
    for (const held of this.held) {
      const rate = this.rateOf(held, now);
      if (rate !== undefined && rate < slowestRate) {
        slowest = held;
        slowestRate = rate;
      }
    }
    return slowest;
  }

  private end(held: Held, why: string): void {
    this.held.delete(held);
    held.cut(why);
  }

  /** Looks at every export a tenth of the window apart: records what it sent, and cuts the slow. */
  private look(): void {
    const now = this.clock();
    for (const held of [...this.held]) {
      held.samples.push([now, held.bytes]);
      const rate = this.rateOf(held, now);
      if (rate !== undefined && rate < this.options.minBytesPerSecond) {
        this.end(
          held,
          `it was taken at ${Math.round(rate)} bytes a second over ${this.options.windowMs / 1000} s, below the ${this.options.minBytesPerSecond} an export must be taken at`,
        );
      }
    }
    if (this.held.size === 0) this.stopSweeping();
  }

  private startSweeping(): void {
    if (this.sweep) return;
    this.sweep = setInterval(() => this.look(), Math.max(100, Math.floor(this.options.windowMs / 10)));
    this.sweep.unref();
  }

  private stopSweeping(): void {
    clearInterval(this.sweep);
    this.sweep = undefined;
  }

  close(): void {
    this.stopSweeping();
  }
}
