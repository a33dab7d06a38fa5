// What every live stream of this process holds unread, together, and a bound on it. Each stream is
// cut at a megabyte unread (stream.ts), but 600 streams whose clients read nothing took 673 MiB
// that way, and at the connection cap it would be gigabytes. Past the bound in all, the stream that
// holds the most is cut (it resumes from the last change it read): the costliest goes first,
// whoever asked last.

/** One stream's part: how many bytes it held when last written to, how to measure it now, how to cut it. */
interface Holder {
  bytes: number;
  measure(): number;
  cut(): void;
}

export class UnreadLedger {
  private readonly holders = new Set<Holder>();
  private total = 0;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes held unread by every stream now. */
  get held(): number {
    return this.total;
  }

  /**
   * A new stream's part: `written` after each write (it measures what the stream holds then),
   * `leave` when it ends. `measure` says what it holds now; `cut` ends it.
   */
  join(measure: () => number, cut: () => void): { written(): void; leave(): void } {
    const holder: Holder = { bytes: 0, measure, cut };
    this.holders.add(holder);
    return {
      written: () => {
        if (!this.holders.has(holder)) return;
        this.set(holder, measure());
        if (this.total > this.limit) this.relieve();
      },
      leave: () => {
        if (!this.holders.delete(holder)) return;
        this.total -= holder.bytes;
      },
    };
  }

  private set(holder: Holder, bytes: number): void {
    this.total += bytes - holder.bytes;
    holder.bytes = bytes;
  }

  /** Past the bound: what each holds now (clients read since their last write), then the largest cut until within it. */
  private relieve(): void {
    for (const holder of this.holders) this.set(holder, holder.measure());
    while (this.total > this.limit) {
      let largest: Holder | undefined;
      for (const holder of this.holders) if (!largest || holder.bytes > largest.bytes) largest = holder;
      if (!largest) return;
      this.holders.delete(largest);
      this.total -= largest.bytes;
      largest.cut();
    }
  }
}
