// A PasswordHasher that can hold every hash until the test opens its gate again, and records
// whose hashes started in which order. Attack tests can then look at what reached the hashing queue at a
// moment of their choosing, with requests still in flight, without timing anything.
import { PasswordHasher, type HasherOptions } from '@eventide/platform/auth/hasher.ts';

export class GatedHasher extends PasswordHasher {
  /** The client of each hash that got a slot, in the order they got it. */
  readonly started: string[] = [];
  /** Hashes asked for, whether or not the queue took them. */
  reached = 0;
  private open: () => void = () => undefined;
  private gate: Promise<void> = Promise.resolve();

  constructor(options: HasherOptions = {}) {
    // Cheap parameters: these tests are about who gets to hash, not about scrypt.
    super({ params: { logN: 10, r: 8, p: 1 }, ...options });
  }

  override run<T>(client: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.reached += 1;
    const gate = this.gate;
    return super.run(
      client,
      async () => {
        this.started.push(client);
        await gate;
        return work();
      },
      signal,
    );
  }

  /** From now on, hashes wait for release(); counts start again from zero. */
  hold(): void {
    this.gate = new Promise<void>((resolve) => (this.open = resolve));
    this.started.length = 0;
    this.reached = 0;
  }

  release(): void {
    this.open();
  }
}
