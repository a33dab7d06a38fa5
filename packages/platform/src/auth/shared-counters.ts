// Rate-limit counters in memory that every thread of a process reads and writes (a
// SharedArrayBuffer), so that a request thread spends a limit without waiting for the writing
// thread's event loop, and a client spreading its requests over the threads still gets its
// budget once. The writing thread makes the table; each request thread is handed it at start.
// A counter behaves as rate-limiter-flexible's memory limiter's: a window from its first point,
// and, once its points are spent, a block of `blockDuration` if the limit has one.
//
// The table's size is fixed, so an attacker can fill it (a flood of addresses). A key that finds
// its bucket full of live counters is neither refused nor allowed to push one out, which would
// free a blocked account or address: it is counted by `overflow` (the writing thread's memory
// limiters, over its port from a request thread), and its bucket records until when counters of
// its keys may live there. Until then a key the bucket does not hold is looked for there too,
// so no key is ever counted in two places.
import { hash, randomBytes } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRes } from './limiter-classes.ts';
import type { LimiterFactory, LimitSpec } from './rate-limit.ts';

/** What a thread needs to use the process's table: handed to each request thread as it starts. */
export interface CounterTable {
  buffer: SharedArrayBuffer;
  /** Hashes keys to buckets under it, so that nobody can choose keys that land in one bucket. */
  secret: string;
}

/** Counters a bucket holds: a flood must fill all of them before a key goes to the overflow. */
const WAYS = 8;
/**
 * 16,384 buckets of 8: room for about 100,000 live counters (4.4 MB of address space, resident
 * only as it is written) before keys start to overflow to the writing thread.
 */
export const DEFAULT_BUCKETS = 16_384;

// A bucket, in 8-byte words: [lock (int32), unused] [overflowUntil (ms)] then WAYS counters of
// [used (int32), unused] [tag high, tag low (int32s)] [value] [expiresAt (ms, 0: never)].
const COUNTER_WORDS = 4;
const BUCKET_WORDS = 2 + WAYS * COUNTER_WORDS;

export function createCounterTable(buckets = DEFAULT_BUCKETS): CounterTable {
  if (!Number.isInteger(Math.log2(buckets))) throw new Error(`a counter table's buckets must be a power of two, not ${buckets}`);
  return { buffer: new SharedArrayBuffer(buckets * BUCKET_WORDS * 8), secret: randomBytes(32).toString('base64') };
}

/**
 * A lock held this long is taken from its holder: only a thread ended inside the few lines it
 * guards holds one so long, and a lost lock must not hang every thread that counts in its bucket.
 */
const STALE_LOCK_MS = 2_000;

/** Where a key's counter is: its bucket's first word and the tag that tells it from the others there. */
interface Place {
  bucket: number;
  high: number;
  low: number;
}

/** A counter's state after an operation, as the memory limiter reports it. */
interface Counted {
  value: number;
  msBeforeNext: number;
  first: boolean;
}

class Table {
  private readonly words: Float64Array;
  private readonly ints: Int32Array;
  private readonly mask: number;
  private readonly secret: string;

  constructor(shared: CounterTable) {
    this.secret = shared.secret;
    this.words = new Float64Array(shared.buffer);
    this.ints = new Int32Array(shared.buffer);
    this.mask = shared.buffer.byteLength / 8 / BUCKET_WORDS - 1;
  }

  place(name: string, key: string): Place {
    const digest = hash('sha256', `${this.secret}${name}\n${key}`, 'buffer');
    return { bucket: (digest.readUInt32LE(8) & this.mask) * BUCKET_WORDS, high: digest.readInt32LE(0), low: digest.readInt32LE(4) };
  }

  /**
   * Runs `work` holding the bucket's lock: a futex-style mutex (0 free, 1 held, 2 held with a
   * thread waiting), so that a waiter sleeps instead of spinning while its holder is descheduled.
   */
  locked<T>(bucket: number, work: () => T): T {
    const lock = bucket * 2;
    if (Atomics.compareExchange(this.ints, lock, 0, 1) !== 0) this.wait(lock);
    try {
      return work();
    } finally {
      if (Atomics.sub(this.ints, lock, 1) !== 1) {
        Atomics.store(this.ints, lock, 0);
        Atomics.notify(this.ints, lock, 1);
      }
    }
  }

  /** Takes the lock once its holder lets it go (or holds it far too long: see STALE_LOCK_MS). */
  private wait(lock: number): void {
    const since = Date.now();
    // Marks the lock as waited for, so that its holder wakes a sleeper as it lets go.
    while (Atomics.exchange(this.ints, lock, 2) !== 0) {
      if (Atomics.wait(this.ints, lock, 2, 50) === 'timed-out' && Date.now() - since > STALE_LOCK_MS) return;
    }
  }

  /** The word of the key's live counter, or -1. Call holding the lock. */
  find({ bucket, high, low }: Place, now: number): number {
    for (let at = bucket + 2; at < bucket + BUCKET_WORDS; at += COUNTER_WORDS) {
      if (this.ints[at * 2] === 1 && this.ints[at * 2 + 2] === high && this.ints[at * 2 + 3] === low && this.live(at, now)) return at;
    }
    return -1;
  }

  /** The word of a counter free for a new key (never used, or run out), or -1. Call holding the lock. */
  free({ bucket }: Place, now: number): number {
    for (let at = bucket + 2; at < bucket + BUCKET_WORDS; at += COUNTER_WORDS) {
      if (this.ints[at * 2] !== 1 || !this.live(at, now)) return at;
    }
    return -1;
  }

  private live(at: number, now: number): boolean {
    const expiresAt = this.words[at + 3]!;
    return expiresAt === 0 || expiresAt > now;
  }

  /** Whether keys the bucket does not hold may be counted by the overflow. */
  overflowed({ bucket }: Place, now: number): boolean {
    return this.words[bucket + 1]! > now;
  }

  /** Records that the overflow may hold a counter of this bucket's keys until `until`. */
  overflowUntil({ bucket }: Place, until: number): void {
    this.words[bucket + 1] = Math.max(this.words[bucket + 1]!, until);
  }

  /** Sets a counter afresh, as the memory limiter's `set` does. */
  set(at: number, { high, low }: Place, value: number, seconds: number, now: number): Counted {
    this.ints[at * 2] = 1;
    this.ints[at * 2 + 2] = high;
    this.ints[at * 2 + 3] = low;
    return this.reset(at, value, seconds, now);
  }

  /** Sets a held counter's value and window afresh. */
  reset(at: number, value: number, seconds: number, now: number): Counted {
    this.words[at + 2] = value;
    this.words[at + 3] = seconds > 0 ? now + seconds * 1000 : 0;
    return { value, msBeforeNext: seconds > 0 ? seconds * 1000 : -1, first: true };
  }

  /** Adds to a live counter, as the memory limiter's `incrby` does. */
  add(at: number, points: number, now: number): Counted {
    const value = this.words[at + 2]! + points;
    this.words[at + 2] = value;
    const expiresAt = this.words[at + 3]!;
    return { value, msBeforeNext: expiresAt === 0 ? -1 : expiresAt - now, first: false };
  }

  clear(at: number): void {
    this.ints[at * 2] = 0;
  }

  value(at: number, now: number): Counted {
    const expiresAt = this.words[at + 3]!;
    return { value: this.words[at + 2]!, msBeforeNext: expiresAt === 0 ? -1 : expiresAt - now, first: false };
  }
}

/** The longest a counter of `spec` lives after it was last set: its window, or its block. */
const lifeMs = (spec: LimitSpec) => (spec.duration > 0 ? Math.max(spec.duration, spec.blockDuration ?? 0) * 1000 : Infinity);

/**
 * Limiters counting in `shared`, and in `overflow` for keys whose bucket is full (see the top of
 * this file). On the writing thread `overflow` is its memory limiters, one per name; on a request
 * thread it asks the writing thread, whose own table limiters then decide again where the key is.
 */
export function tableLimiters(shared: CounterTable, overflow: LimiterFactory): LimiterFactory {
  const table = new Table(shared);
  return (spec) => {
    const spill = overflow(spec);
    const { name, points: limit, duration } = spec;
    const blockDuration = spec.blockDuration ?? 0;

    /**
     * Adds `points` to the key's counter as the memory limiter's `incrby` does (`block`: and blocks
     * it once its points are spent, as its `consume` does), or answers undefined when the key is
     * counted by the overflow.
     */
    function count(key: string, points: number, block: boolean): Counted | undefined {
      const place = table.place(name, key);
      const now = Date.now();
      return table.locked(place.bucket, () => {
        const found = table.find(place, now);
        if (found < 0) {
          const free = table.overflowed(place, now) ? -1 : table.free(place, now);
          if (free < 0) {
            table.overflowUntil(place, now + lifeMs(spec));
            return undefined;
          }
          const counted = table.set(free, place, points, duration, now);
          return block ? blocked(free, counted, points, now) : counted;
        }
        const counted = table.add(found, points, now);
        return block ? blocked(found, counted, points, now) : counted;
      });
    }
    function blocked(at: number, counted: Counted, points: number, now: number): Counted {
      // Blocked the first time the points run out, not again by each refused request.
      const first = counted.value > limit && counted.value <= limit + points;
      return blockDuration > 0 && first ? table.reset(at, counted.value, blockDuration, now) : counted;
    }
    const resOf = ({ value, msBeforeNext, first }: Counted) => new RateLimiterRes(Math.max(limit - value, 0), msBeforeNext, value, first);
    /** What `inTable` makes of the key's live counter if the table holds it, else whether the overflow may. */
    function withCounter<T>(key: string, inTable: (at: number, now: number) => T): { found: T } | 'elsewhere' | 'absent' {
      const place = table.place(name, key);
      const now = Date.now();
      return table.locked(place.bucket, () => {
        const at = table.find(place, now);
        if (at >= 0) return { found: inTable(at, now) };
        return table.overflowed(place, now) ? 'elsewhere' : 'absent';
      });
    }

    // The package exports no abstract base to extend; the memory limiter's own counters are never used.
    class InTheTable extends RateLimiterMemory {
      override async consume(key: string | number, points = 1) {
        const counted = count(String(key), points, true);
        if (!counted) return spill.consume(key, points);
        if (counted.value > limit) throw resOf(counted);
        return resOf(counted);
      }
      override async penalty(key: string | number, points = 1) {
        const counted = count(String(key), points, false);
        return counted ? resOf(counted) : spill.penalty(key, points);
      }
      override async reward(key: string | number, points = 1) {
        const counted = count(String(key), -points, false);
        return counted ? resOf(counted) : spill.reward(key, points);
      }
      override async get(key: string | number) {
        const outcome = withCounter(String(key), (at, now) => table.value(at, now));
        if (outcome === 'elsewhere') return spill.get(key);
        return outcome === 'absent' ? null : resOf(outcome.found);
      }
      override async delete(key: string | number) {
        const outcome = withCounter(String(key), (at) => table.clear(at));
        return outcome === 'elsewhere' ? spill.delete(key) : outcome !== 'absent';
      }
    }
    return new InTheTable({ keyPrefix: name, points: limit, duration, blockDuration });
  };
}
