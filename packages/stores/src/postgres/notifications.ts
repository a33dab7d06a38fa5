// A channel's notifications (LISTEN), on a connection of their own that comes back by itself:
// what wakes live subscriptions when another connection, in this process or another, commits.
// Each notification, and each time the connection is made again (what was committed while it was
// down was not notified), counts one; a waiter says which count it has seen, so one that came
// while it was reading is not waited for.
import pg from 'pg';
import { backoffDelay } from '@eventide/kernel/backoff.ts';

export class Notifications {
  /** Notifications seen, and reconnections. */
  count = 0;
  private readonly waiters = new Set<() => void>();
  private client: pg.Client | undefined;
  private started = false;
  private closed = false;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;

  private readonly url: string;
  private readonly channel: string;

  constructor(url: string, channel: string) {
    this.url = url;
    this.channel = channel;
  }

  /** Resolves once the count is past `seen` (at once if it already is), or on abort. */
  next(seen: number, signal?: AbortSignal): Promise<void> {
    this.start();
    if (this.count !== seen || this.closed || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.wake();
    await this.client?.end().catch(() => undefined);
  }

  private wake(): void {
    this.count++;
    for (const done of [...this.waiters]) done();
  }

  private start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      // Readers look again (and meet the outage themselves) while the connection is made again.
      this.wake();
      this.failures++;
      this.retry = setTimeout(() => void this.connect(), backoffDelay(this.failures));
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.failures = 0;
      // Anything committed before the LISTEN took effect was not notified: readers look once more.
      this.wake();
    } catch {
      onLost();
    }
  }
}
