// Each document keeps a bounded history (docs/collab.md#history): its newest COLLAB_HISTORY_OPS
// ops, no more than COLLAB_HISTORY_BYTES of them, and two milestone snapshots, the one the kept
// ops start from and the newest. Without a bound, typing and deleting the same text again and
// again grew the store by megabytes a second, for ever. The history is trimmed when a milestone
// is saved (every COLLAB_SNAPSHOT_EVERY_OPS ops or seconds), one document at a time: the version
// the kept ops start from is rebuilt from what is kept now and saved as a milestone, then what is
// older is let go; also after ops of a quarter of COLLAB_HISTORY_BYTES, so that large ops do not
// pile up between milestones. A deleted document lets go of all of it. A client further behind than that is told to reload (ERR_TOO_FAR_BEHIND); a
// read of a version or time before it answers which is the oldest there is.
import type ShareDB from 'sharedb';
import type { Logger } from '@eventide/shared/log.ts';
import type { HistoryLimits, HistoryStore } from '../store/history.ts';
import { DOCUMENTS } from './access.ts';

export interface HistoryKeeper {
  /**
   * An op of about `bytes` made `id` version `version`: its history is trimmed, in the background,
   * when a milestone was saved with it, or once ops of a quarter of the bytes kept came since
   * the last trim (so that large ops cannot pile up between milestones).
   */
  wrote(id: string, version: number, bytes: number, milestone: boolean): void;
  /**
   * Before a commit: resolves at once, unless the document has had a whole COLLAB_HISTORY_BYTES of
   * ops since its last trim and one is running; then once it has ended, so that ops never pile up
   * faster than they are let go (a commit waits, its op is not refused).
   */
  caughtUp(id: string): Promise<void>;
  /**
   * `id` was deleted, which made it version `version`: its history goes, in the background, once
   * any trim of it has ended; a typeless milestone at `version` is what it is made again from.
   */
  deleted(id: string, version: number): void;
  /** Resolves once no trim is running (tests, shutdown). */
  idle(): Promise<void>;
}

export interface HistoryKeeperOptions {
  backend: ShareDB;
  milestones: ShareDB.MilestoneDB;
  store: HistoryStore;
  limits: HistoryLimits;
  log: Logger;
}

export function historyKeeper({ backend, milestones, store, limits, log }: HistoryKeeperOptions): HistoryKeeper {
  // A connection of the server's own: its agent passes the guards.
  const connection = backend.connect();
  const running = new Map<string, Promise<void>>();
  /** The version each document's kept history starts from, as far as this process trimmed it. */
  const keptFrom = new Map<string, number>();

  const snapshotAt = (id: string, version: number) =>
    new Promise<{ type: string | null; data: unknown }>((resolve, reject) =>
      connection.fetchSnapshot(DOCUMENTS, id, version, (error, snapshot) =>
        error ? reject(error) : resolve(snapshot as unknown as { type: string | null; data: unknown }),
      ),
    );
  const saveMilestone = (snapshot: { id: string; v: number; type: string | null; data: unknown; m: { mtime?: number } | null }) =>
    new Promise<void>((resolve, reject) =>
      milestones.saveMilestoneSnapshot(DOCUMENTS, snapshot as never, (error?: Error) => (error ? reject(error) : resolve())),
    );

  async function trimNow(id: string, version: number): Promise<void> {
    const from = await store.keepFrom(DOCUMENTS, id, version, limits);
    if (from <= (keptFrom.get(id) ?? 0)) return;
    const [at, mtime] = await Promise.all([snapshotAt(id, from), store.reachedAt(DOCUMENTS, id, from)]);
    await saveMilestone({ id, v: from, type: at.type, data: at.data, m: mtime === undefined ? null : { mtime } });
    await store.letGo(DOCUMENTS, id, from);
    keptFrom.set(id, from);
    // Only recent documents are remembered: one forgotten costs a look at its ops next time.
    if (keptFrom.size > 10_000) keptFrom.delete(keptFrom.keys().next().value!);
  }

  /** About how many bytes of ops each document has had since its last trim. */
  const since = new Map<string, number>();

  return {
    wrote(id, version, bytes, milestone) {
      const pending = (since.get(id) ?? 0) + bytes;
      since.set(id, pending);
      if (since.size > 10_000) since.delete(since.keys().next().value!);
      if ((!milestone && pending < limits.bytes / 4) || running.has(id)) return;
      since.delete(id);
      const trimming = trimNow(id, version)
        .catch((error: unknown) =>
          log.warn({ err: error, document: id }, 'trimming a document’s history failed; it is tried again at its next milestone'),
        )
        .finally(() => running.get(id) === trimming && running.delete(id));
      running.set(id, trimming);
    },
    deleted(id, version) {
      const forgetting = (running.get(id) ?? Promise.resolve())
        .then(() => store.forget(DOCUMENTS, id))
        .then(() => saveMilestone({ id, v: version, type: null, data: undefined, m: null }))
        .then(() => {
          since.delete(id);
          keptFrom.delete(id);
        })
        .catch((error: unknown) => log.warn({ err: error, document: id }, 'letting go of a deleted document’s history failed'))
        .finally(() => running.get(id) === forgetting && running.delete(id));
      running.set(id, forgetting);
    },
    async caughtUp(id) {
      const trimming = running.get(id);
      if (trimming && (since.get(id) ?? 0) >= limits.bytes) await trimming;
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
