// Revocations on PostgreSQL (DATABASE_URL): a table every process on the database shares, as the
// embedded feed's, and a NOTIFY on each publish, so that other processes read the new rows at once
// instead of polling. A process whose listening connection was lost reads what it missed from the
// table when it is back (each reconnection wakes it), so no revocation is dropped by an outage.
//
// A listener hears what is published after it subscribed, by the publishing process's clock
// (each row's `at`): on one host exactly; across hosts, as closely as their clocks agree, which
// NTP keeps to milliseconds (MongoDB's change streams, which start when the server gets to them,
// have a window of the same kind). The processes that hold connections re-check them besides.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Notifications } from '../postgres/notifications.ts';
import { reaching } from '../postgres/errors.ts';
import { LocalListeners, type Revocation, type RevocationFeed } from './port.ts';

const STORE = 'revocation feed';
const CHANNEL = 'eventide_revocations';
const PRUNE_EVERY = 100;
const PAGE = 1000;

export interface PostgresRevocationOptions {
  /** How long a revocation is kept; only processes running then need it. */
  retainMs?: number;
  /** Milliseconds, with their fractions: a listener that subscribes right after a publish is later than it. */
  clock?: () => number;
  onError?: (error: unknown) => void;
}

/** `pool`: the auth tables' (postgres/auth-schema.ts), already migrated; `url` for the listening connection. */
export async function postgresRevocations(pool: pg.Pool, url: string, options: PostgresRevocationOptions = {}): Promise<RevocationFeed> {
  const { retainMs = 10 * 60_000, clock = () => performance.timeOrigin + performance.now() } = options;
  const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => reaching(STORE, () => pool.query<R>(text, values));
  const onError = options.onError ?? (() => undefined);
  /** This process's listeners: told of its own revocations at once, as they are published. */
  const listeners = new LocalListeners(onError);
  /** The same listeners, each told of others' revocations published since it subscribed. */
  const followers = new Set<{ since: number; listener: (r: Revocation) => void }>();
  const tell = (listener: (r: Revocation) => void, revocation: Revocation) => {
    try {
      listener(revocation);
    } catch (error) {
      onError(error);
    }
  };
  const notifications = new Notifications(url, CHANNEL);
  /**
   * This feed's mark on what it publishes: its own listeners were told at once, so its rows are
   * skipped when it reads them. (A set of its ids, filled when the insert answered, raced with the
   * NOTIFY, which may come first: a listener then heard a revocation twice.)
   */
  const origin = randomUUID();
  const following = new AbortController();
  let published = 0;
  let closed = false;

  const newest = async () => Number((await query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM revocations')).rows[0]!.id);

  /** Delivers every row after `seen` as it comes, until `signal` aborts. */
  async function follow(seen: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const wake = notifications.count;
      try {
        for (;;) {
          const { rows } = await query<{ id: string; body: Revocation; at: number; origin: string }>(
            'SELECT id, body, at, origin FROM revocations WHERE id > $1 ORDER BY id LIMIT $2',
            [seen, PAGE],
          );
          for (const row of rows) {
            seen = Number(row.id);
            if (row.origin === origin || signal.aborted) continue;
            for (const follower of followers) if (row.at >= follower.since) tell(follower.listener, row.body);
          }
          if (rows.length < PAGE) break;
        }
      } catch (error) {
        // The database is away: the reconnection that brings it back wakes this again. (At close,
        // a read cut short by the pool's end is no error.)
        if (!signal.aborted) onError(error);
      }
      await notifications.next(wake, signal);
    }
  }

  // Followed from the open, listeners or not: what is published after it reaches whoever listens
  // when it is read, and a listener added a moment before another process publishes misses nothing.
  void follow(await newest(), following.signal).catch((error: unknown) => options.onError?.(error));

  return {
    async publish(revocation) {
      if (closed) throw new Error('the revocation feed is closed');
      await query(
        `WITH published AS (INSERT INTO revocations (body, at, origin) VALUES ($1, $2, $3) RETURNING id)
         SELECT id, pg_notify('${CHANNEL}', id::text) FROM published`,
        [JSON.stringify(revocation), clock(), origin],
      );
      if (++published % PRUNE_EVERY === 0) await query('DELETE FROM revocations WHERE at < $1', [clock() - retainMs]);
      listeners.deliver(revocation);
    },
    subscribe(listener) {
      const follower = { since: clock(), listener };
      followers.add(follower);
      const remove = listeners.add(listener);
      return () => {
        remove();
        followers.delete(follower);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      following.abort();
      await notifications.close();
    },
  };
}
