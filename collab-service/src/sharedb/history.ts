// Each document keeps a bounded history (docs/collab.md#history): its newest COLLAB_HISTORY_OPS
// ops, no more than COLLAB_HISTORY_BYTES of them, and two milestone snapshots, the one the kept
// ops start from and the newest, besides those of its named versions (named-versions.ts). Without a bound, typing and deleting the same text again and
// again grew the store by megabytes a second, for ever.
//
// A trim rebuilds the version the kept ops are to start from, saves it as a milestone and lets
// what is older go, one document at a time, in the background. It lets many ops go at once: at a
// milestone once the ops kept are a quarter more than COLLAB_HISTORY_OPS, or once ops of a quarter
// of COLLAB_HISTORY_BYTES came since the last trim. At the milestones in between only the
// milestones between the two kept are let go, which costs a delete. A deleted document lets go of
// all of it. A client further behind than the kept history is told to reload (ERR_TOO_FAR_BEHIND);
// a read of a version or time before it answers which is the oldest there is.
import type ShareDB from 'sharedb';
import type { Logger } from '@eventide/kernel/log.ts';
import type { HistoryLimits, HistoryStore } from '../store/history.ts';
import { DOCUMENTS } from './access.ts';

export interface HistoryKeeper {
  /**
   * An op of about `bytes` made `id` version `version`: its history is trimmed, in the background,
   * when it is due by count at a milestone, or once ops of a quarter of the bytes kept came since
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
  /**
   * Runs `work` while no trim of `id` runs in this process, and starts none until it has ended:
   * naming a version (named-versions.ts) records it and saves its milestone, which a trim reading
   * the names in between would let go.
   */
  holding<T>(id: string, work: () => Promise<T>): Promise<T>;
  /** Resolves once no trim is running (tests, shutdown). */
  idle(): Promise<void>;
}

/** The versions of a document someone named: their milestones are kept through every trim. */
export interface KeptVersions {
  versionsOf(id: string): Promise<number[]>;
  /** The document was deleted: its names go with its history. */
  forgetAll(id: string): Promise<void>;
}

export interface HistoryKeeperOptions {
  backend: ShareDB;
  milestones: ShareDB.MilestoneDB;
  store: HistoryStore;
  limits: HistoryLimits;
  /** Named versions, set once they exist (backend.ts): none are kept before. */
  named?: () => KeptVersions | undefined;
  log: Logger;
}

export function historyKeeper({ backend, milestones, store, limits, named, log }: HistoryKeeperOptions): HistoryKeeper {
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

  /** Lets go of what is older than `from`, but for the named versions' milestones. */
  const letGo = async (id: string, from: number) => store.letGo(DOCUMENTS, id, from, (await named?.()?.versionsOf(id)) ?? []);

  async function trimNow(id: string, version: number): Promise<void> {
    const from = await store.keepFrom(DOCUMENTS, id, version, limits);
    const known = keptFrom.get(id);
    if (known !== undefined && from <= known) return;
    // Nothing older is kept (a young document): there is nothing to let go.
    if (from > 0) {
      const [at, mtime] = await Promise.all([snapshotAt(id, from), store.reachedAt(DOCUMENTS, id, from)]);
      await saveMilestone({ id, v: from, type: at.type, data: at.data, m: mtime === undefined ? null : { mtime } });
      await letGo(id, from);
    }
    // Only once its milestone is saved: the milestones between are let go from it on.
    remember(id, from);
  }

  function remember(id: string, from: number): void {
    keptFrom.set(id, from);
    // Only recent documents are remembered: one forgotten costs a look at its ops next time.
    if (keptFrom.size > 10_000) keptFrom.delete(keptFrom.keys().next().value!);
  }

  /**
   * Whether a document is due a trim by the count of its ops: once its kept ops are a quarter more
   * than the limit (so a trim lets go of many at once), or when this process has not yet learnt
   * where its history starts (at its next milestone).
   */
  function dueByCount(id: string, version: number, milestone: boolean): boolean {
    const known = keptFrom.get(id);
    return milestone && (known === undefined || version - known > limits.ops + limits.ops / 4);
  }

  /** About how many bytes of ops each document has had since its last trim. */
  const since = new Map<string, number>();

  return {
    wrote(id, version, bytes, milestone) {
      const pending = (since.get(id) ?? 0) + bytes;
      since.set(id, pending);
      if (since.size > 10_000) since.delete(since.keys().next().value!);
      if (running.has(id)) return;
      const known = keptFrom.get(id);
      let work: () => Promise<void>;
      if (pending >= limits.bytes / 4 || dueByCount(id, version, milestone)) {
        since.delete(id);
        work = () => trimNow(id, version);
      } else if (milestone && known !== undefined) {
        work = () => letGo(id, known);
      } else {
        return;
      }
      const trimming = work()
        .catch((error: unknown) =>
          log.warn({ err: error, document: id }, 'trimming a document’s history failed; it is tried again at its next milestone'),
        )
        .finally(() => running.get(id) === trimming && running.delete(id));
      running.set(id, trimming);
    },
    deleted(id, version) {
      const forgetting = (running.get(id) ?? Promise.resolve())
        .then(() => store.forget(DOCUMENTS, id))
        .then(() => named?.()?.forgetAll(id))
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
    holding(id, work) {
      const held = (running.get(id) ?? Promise.resolve()).then(work);
      const settled = held.then(
        () => undefined,
        () => undefined,
      );
      running.set(id, settled);
      void settled.finally(() => running.get(id) === settled && running.delete(id));
      return held;
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
