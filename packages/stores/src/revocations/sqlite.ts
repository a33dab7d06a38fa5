// Revocations on the embedded default: a table in the sessions' SQLite file, so that every
// process on one data directory (npm start, the admin command line, the services started alone)
// sees them. A process hears its own at once; others' it finds by polling, which costs one
// `PRAGMA data_version` (no read from disk) until another connection has written.
import type { DatabaseSync } from 'node:sqlite';
import { openSqliteFile } from '../sqlite-file.ts';
import { LocalListeners, type Revocation, type RevocationFeed } from './port.ts';

export interface SqliteRevocationOptions {
  /** How often other processes' revocations are looked for. */
  pollMs?: number;
  /** How long a revocation is kept; only processes running then need it. */
  retainMs?: number;
  clock?: () => number;
  onError?: (error: unknown) => void;
}

const PRUNE_EVERY = 100;

export function openSqliteRevocations(path: string, options: SqliteRevocationOptions = {}): RevocationFeed {
  const { pollMs = 100, retainMs = 10 * 60_000, clock = Date.now } = options;
  const db: DatabaseSync = openSqliteFile(path, 'NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS revocations (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, at INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO revocations (body, at) VALUES (?, ?) RETURNING id');
  const after = db.prepare('SELECT id, body FROM revocations WHERE id > ? ORDER BY id LIMIT 1000');
  const newest = db.prepare('SELECT coalesce(max(id), 0) AS id FROM revocations');
  const prune = db.prepare('DELETE FROM revocations WHERE at < ?');
  const dataVersion = db.prepare('PRAGMA data_version');
  const listeners = new LocalListeners(options.onError ?? (() => undefined));
  /** Ids this process published: already delivered here, skipped when the poll meets them. */
  const own = new Set<number>();
  let seen = Number((newest.get() as { id: number }).id);
  let version: unknown;
  let published = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function poll(): void {
    const now = (dataVersion.get() as { data_version: number }).data_version;
    if (now === version) return;
    version = now;
    for (;;) {
      const rows = after.all(seen) as Array<{ id: number; body: string }>;
      for (const row of rows) {
        seen = row.id;
        if (own.delete(row.id)) continue;
        listeners.deliver(JSON.parse(row.body) as Revocation);
      }
      if (rows.length < 1000) return;
    }
  }

  return {
    async publish(revocation) {
      if (closed) throw new Error('the revocation feed is closed');
      const { id } = insert.get(JSON.stringify(revocation), clock()) as { id: number };
      if (timer) own.add(Number(id));
      if (++published % PRUNE_EVERY === 0) prune.run(clock() - retainMs);
      listeners.deliver(revocation);
    },
    subscribe(listener) {
      const remove = listeners.add(listener);
      if (!timer && !closed) {
        // From here on, rows are counted against `seen`: start after what exists now.
        seen = Number((newest.get() as { id: number }).id);
        version = (dataVersion.get() as { data_version: number }).data_version;
        timer = setInterval(() => {
          try {
            poll();
          } catch (error) {
            options.onError?.(error);
          }
        }, pollMs);
        timer.unref();
      }
      return () => {
        remove();
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
          own.clear();
        }
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      db.close();
    },
  };
}
