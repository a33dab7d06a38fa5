// A budget of the server's time for each client's reads (docs/operations.md#bounds): a page of
// products takes a fraction of a millisecond; a history page, an as-of read of a long order or a
// stream resumed from far back can take hundreds, and a client looping those made everyone else's
// reads up to eight times slower. Each client has a bucket of milliseconds that fills at its rate
// (RATE_LIMIT_READ_MS_PER_SECOND) up to one second's worth. A read takes what its operation
// usually costs before it runs (atomically: the bucket may go below empty, and the read then waits
// its turn), and what it took beyond that is charged after it ran, so a dear read's debt is paid
// by the client's next reads, not forgiven at a window's end.
//
// A read whose turn is more than a second away is refused with 429 and Retry-After, and the
// refusal itself is held for that second: a client that ignores Retry-After and asks again at once
// would otherwise spend the server's time on thousands of refusals a second.
//
// The buckets are this process's own: what they count is this process's time.
import { setTimeout as sleep } from 'node:timers/promises';
import { problems } from '@eventide/contract/problems.ts';

/** How long a read may wait for its turn, and how long a refusal is held. */
const MAX_WAIT_MS = 1000;
/** A bucket is dropped once full: a client that has not read for this long costs no memory. */
const SWEEP_EVERY_MS = 10_000;
/** The most a client may owe, in seconds of its rate: a far resume's catch-up is charged after, whatever it took. */
const MAX_DEBT_SECONDS = 30;

interface Bucket {
  /** Milliseconds of the server's time the client may still spend; below 0, what it owes. */
  tokens: number;
  at: number;
}

export class ReadBudget {
  private readonly buckets = new Map<string, Bucket>();
  /** Milliseconds a client earns per millisecond, and the most it holds. */
  private readonly rate: number;
  private readonly burst: number;
  private readonly msPerSecond: number;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<unknown>;
  private lastSweep: number;

  constructor(msPerSecond: number, time: { clock?: () => number; sleep?: (ms: number) => Promise<unknown> } = {}) {
    this.msPerSecond = msPerSecond;
    this.rate = msPerSecond / 1000;
    this.burst = msPerSecond;
    this.clock = time.clock ?? performance.now.bind(performance);
    this.sleep = time.sleep ?? sleep;
    this.lastSweep = this.clock();
  }

  /** Clients with a bucket now (one that filled up is let go at the next sweep). */
  get clients(): number {
    return this.buckets.size;
  }

  private bucketOf(client: string, now: number): Bucket {
    let bucket = this.buckets.get(client);
    if (!bucket) {
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(client, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.rate);
      bucket.at = now;
    }
    return bucket;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [client, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.rate >= this.burst) this.buckets.delete(client);
    }
  }

  /**
   * Takes `ms` from `client`'s bucket before a read runs: at once while it holds them, after a
   * wait of up to a second while it is owed, else (held for that second) a 429 with Retry-After.
   */
  async reserve(client: string, ms: number): Promise<void> {
    const now = this.clock();
    this.sweep(now);
    const bucket = this.bucketOf(client, now);
    const short = ms - bucket.tokens;
    const waitMs = short <= 0 ? 0 : short / this.rate;
    if (waitMs > MAX_WAIT_MS) {
      await this.sleep(MAX_WAIT_MS);
      const seconds = Math.max(1, Math.ceil((waitMs - MAX_WAIT_MS) / 1000));
      throw problems.tooManyRequests(
        `this client's reads take more than ${this.msPerSecond} ms of the server's time a second; try again in ${seconds} s`,
        { 'Retry-After': String(seconds) },
      );
    }
    bucket.tokens -= ms;
    if (waitMs > 0) await this.sleep(waitMs);
  }

  /** Charges `ms` more to `client` after the work, never refusing: the client's next reads pay it. */
  charge(client: string, ms: number): void {
    if (ms <= 0) return;
    const bucket = this.bucketOf(client, this.clock());
    bucket.tokens = Math.max(-MAX_DEBT_SECONDS * this.msPerSecond, bucket.tokens - ms);
  }
}
