// Embedded event store on SQLite (node:sqlite). Fit for production on one node: WAL with
// synchronous=FULL makes every acknowledged append durable, several processes may share the
// file, and appends arriving together are group-committed so that they share one fsync. The
// appends of one appendInOrder share a savepoint: all of them are written, or none.
// Snapshots of long streams live in the same file and ride along with the next commit.
//
// The commit runs on the caller's thread, so its fsync holds the event loop for that long.
// A writer thread was tried and measured (2026-11-20): the message round trip cost more than
// the fsync it hid on this hardware (single appends 3.6x slower, 32 concurrent appenders 4x
// slower), so the commit stays here. Revisit on disks whose fsync takes milliseconds.
// Committing at NORMAL and syncing the write-ahead log on libuv's threads before answering was
// measured too (2026-11-25: 14-21% more sign-ups; later, with the followers on a thread of their
// own, none), and left out: SQLite shows a commit to other readers as it ends, which at FULL is
// after its fsync and at NORMAL before any. A follower (here or in another process) could then
// project or publish an event that a power loss takes back.
import {
  checkAppends,
  NAME_BASED_UUID,
  type AppendResult,
  type EventStore,
  type Snapshot,
  type StreamAppend,
  type SubscribeOptions,
} from './port.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { CAUSE, EVENT_STORE_SCHEMA, REPEATABLE } from './sqlite-schema.ts';
import { LIMIT_PLACEHOLDER, openSqliteFile } from '../sqlite-file.ts';
import { sqliteAppendWriter } from './sqlite-append.ts';
import { crossThreadWake } from './sqlite-wake.ts';
import { toRecorded, type EventRow } from './sqlite-rows.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:' for tests that need no durability. */
  path: string;
  /** FULL (default) survives power loss; NORMAL survives a process crash only. */
  synchronous?: 'FULL' | 'NORMAL';
  /** How often a live subscription looks for appends made by other processes. */
  pollIntervalMs?: number;
  clock?: () => Date;
}

interface SnapshotRow {
  version: string;
  revision: number;
  position: number;
  time: string;
  state: string;
}

interface PendingSnapshot {
  streamId: string;
  snapshot: Snapshot;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Appends that stand or fall together: one, or the streams of an appendInOrder. */
interface PendingAppend {
  appends: StreamAppend[];
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

const READ_PAGE = 500;
/**
 * The most positions a subscription to some types looks through in one read, and so in one turn of
 * the event loop while it catches up: the thread is held for that read, the writing thread on
 * `npm start` (the deadlines' follower). Passing over a row of another type cost 0.37-0.39 µs on
 * the store of 1,000,000 events (2026-11-30), against 1.7 µs to read one out without parsing it:
 * 2,000 positions take under a millisecond.
 */
const TYPES_SPAN = 2_000;

export function openSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  const db = openSqliteFile(options.path, options.synchronous ?? 'FULL');
  db.exec(EVENT_STORE_SCHEMA);
  const clock = options.clock ?? (() => new Date());
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const appendNow = sqliteAppendWriter(db, clock);

  const sql = {
    readStream: db.prepare('SELECT * FROM events WHERE stream_id = ? AND revision BETWEEN ? AND ? ORDER BY revision'),
    // `+stream_id` keeps the planner on the cause index: the stream's own index would walk all its events.
    readCausedByRepeatable: db.prepare(`SELECT * FROM events WHERE ${CAUSE} = ? AND ${REPEATABLE} AND +stream_id = ? ORDER BY revision`),
    readCausedByScan: db.prepare(`SELECT * FROM events WHERE stream_id = ? AND ${CAUSE} = ? ORDER BY revision`),
    // A stream's snapshots are its rows of the primary key: each bound reads them newest first.
    readSnapshot: db.prepare(
      'SELECT * FROM snapshots WHERE stream_id = ? AND revision <= ? AND version = ? ORDER BY revision DESC LIMIT 1',
    ),
    readSnapshotByPosition: db.prepare(
      'SELECT * FROM snapshots WHERE stream_id = ? AND position <= ? AND version = ? ORDER BY revision DESC LIMIT 1',
    ),
    readSnapshotByTime: db.prepare(
      'SELECT * FROM snapshots WHERE stream_id = ? AND time <= ? AND version = ? ORDER BY revision DESC LIMIT 1',
    ),
    eventAt: db.prepare('SELECT position, time FROM events WHERE stream_id = ? AND revision = ?'),
    dropOtherSnapshots: db.prepare('DELETE FROM snapshots WHERE stream_id = ? AND version <> ?'),
    saveSnapshot: db.prepare(
      'INSERT OR REPLACE INTO snapshots (stream_id, revision, version, position, time, state) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    readAll: db.prepare(`SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ${LIMIT_PLACEHOLDER}`),
    // A range of positions (the table's own key), the types a JSON array: rows of other types are
    // passed over inside SQLite, never read out into JavaScript.
    readTypes: db.prepare(
      `SELECT * FROM events WHERE position > ? AND position <= ? AND type IN (SELECT value FROM json_each(?)) ORDER BY position LIMIT ${LIMIT_PLACEHOLDER}`,
    ),
    snapshottedStreams: db.prepare(
      `SELECT stream_id, MAX(revision) AS revision FROM snapshots GROUP BY stream_id ORDER BY revision DESC LIMIT ${LIMIT_PLACEHOLDER}`,
    ),
    streamLength: db.prepare('SELECT MAX(revision) + 1 AS events FROM events WHERE stream_id = ?'),
    lastPosition: db.prepare('SELECT COALESCE(MAX(position), 0) AS position FROM events'),
    // Prepared once: exec would parse them again for every append.
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    savepoint: db.prepare('SAVEPOINT append'),
    release: db.prepare('RELEASE append'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO append'),
  };

  let closed = false;
  let queue: PendingAppend[] = [];
  let snapshotQueue: PendingSnapshot[] = [];
  let flushScheduled = false;
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  const otherThreads = crossThreadWake(options.path, wakeAll);

  /** Writes a snapshot unless its last event is not where it says; one statement at a time, so a failure undoes only itself. */
  function saveSnapshotNow({ streamId, snapshot }: PendingSnapshot): void {
    const at = sql.eventAt.get(streamId, snapshot.revision) as { position: number; time: string } | undefined;
    if (!at || Number(at.position) !== snapshot.position || at.time !== snapshot.time) {
      throw new TypeError(`snapshot of ${streamId} at revision ${snapshot.revision}: no such event in the stream`);
    }
    sql.dropOtherSnapshots.run(streamId, snapshot.version);
    sql.saveSnapshot.run(streamId, snapshot.revision, snapshot.version, snapshot.position, snapshot.time, JSON.stringify(snapshot.state));
  }

  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  }
  /**
   * A group commit kept for appends that wait for something scheduled before it (the sealing
   * store's keys, made in a batch of their own at the end of the turn: port.ts reserveCommit).
   * Scheduled when they ask, it runs right after that batch, in the same turn; scheduled when they
   * append, once their keys are made, it would run a turn later. Under sign-ups, 32 clients, that
   * turn was one of each sign-up's two: each client's request now waits for one turn's commits.
   */
  let reservedFlush = false;
  function reserveFlush(): void {
    if (reservedFlush) return;
    reservedFlush = true;
    flushScheduled = true;
    setImmediate(() => {
      reservedFlush = false;
      flush();
    });
  }

  /**
   * Runs every queued append and snapshot in one transaction, so that they share one commit; each
   * append has its own savepoint so one failure spares the rest.
   */
  function flush(): void {
    flushScheduled = false;
    const batch = queue;
    const snapshots = snapshotQueue;
    queue = [];
    snapshotQueue = [];
    if (batch.length === 0 && snapshots.length === 0) return;
    const outcomes: Array<{ ok: true; value: AppendResult[] } | { ok: false; error: unknown }> = [];
    const snapshotErrors = new Map<PendingSnapshot, unknown>();
    try {
      sql.begin.run();
      for (const pending of snapshots) {
        try {
          saveSnapshotNow(pending);
        } catch (error) {
          if (!db.isTransaction) throw error;
          snapshotErrors.set(pending, error);
        }
      }
      for (const pending of batch) {
        // An append of one event writes nothing before the check that can refuse it, and its one
        // insert either happens or not: only appends of several need a savepoint to undo.
        const undoable = pending.appends.length > 1 || pending.appends[0]!.events.length > 1;
        if (undoable) sql.savepoint.run();
        try {
          outcomes.push({ ok: true, value: pending.appends.map(appendNow) });
          if (undoable) sql.release.run();
        } catch (error) {
          // Some failures (a full disk, an I/O error) end the whole transaction: what would follow
          // would commit on its own, so everything in this batch fails as one instead.
          if (!db.isTransaction) throw error;
          if (undoable) {
            sql.rollbackToSavepoint.run();
            sql.release.run();
          }
          outcomes.push({ ok: false, error });
        }
      }
      sql.commit.run();
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      for (const pending of [...batch, ...snapshots]) pending.reject(error);
      return;
    }
    for (const pending of snapshots) {
      if (snapshotErrors.has(pending)) pending.reject(snapshotErrors.get(pending));
      else pending.resolve();
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
    wakeAll();
    otherThreads.announce();
  }

  function enqueue(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (closed) return Promise.reject(new Error('event store is closed'));
    try {
      checkAppends(appends);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      queue.push({ appends, resolve, reject });
      scheduleFlush();
    });
  }

  function readAllSync(after: number, limit: number): RecordedEvent[] {
    return (sql.readAll.all(after, limit) as unknown as EventRow[]).map(toRecorded);
  }

  /**
   * The followers on one thread (the projector, the publisher, the forgetter and the webhooks on
   * `npm start`'s followers' thread) are woken by the same commit and read on from the same place:
   * the first one's page is the others' for the rest of that turn of the event loop, instead of
   * each reading and parsing the same rows again. A page is a stretch of the log, which never
   * changes: a later read may only find more after it, which the subscription reads next.
   * Its events are shared, as every follower takes an event as a value and changes none.
   */
  let pageOfThisTurn: { after: number; events: RecordedEvent[] } | undefined;
  /** `fresh`: read it again, the turn's copy having been found older than the log. */
  function followersPage(after: number, fresh: boolean): RecordedEvent[] {
    if (!fresh && pageOfThisTurn?.after === after) return pageOfThisTurn.events;
    if (pageOfThisTurn === undefined) setImmediate(() => (pageOfThisTurn = undefined));
    pageOfThisTurn = { after, events: readAllSync(after, READ_PAGE) };
    return pageOfThisTurn.events;
  }

  /** Resolves on an append in this process, after a poll interval (appends by other processes), or on abort. */
  function nextWake(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        waiters.delete(done);
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, pollIntervalMs);
      waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  return {
    async append(streamId, events, { expectedRevision }) {
      const [result] = await enqueue([{ streamId, events, expectedRevision }]);
      return result!;
    },

    appendInOrder: enqueue,
    reserveCommit: reserveFlush,

    async readStream(streamId, { fromRevision = 0, toRevision = Number.MAX_SAFE_INTEGER } = {}) {
      return (sql.readStream.all(streamId, fromRevision, toRevision) as unknown as EventRow[]).map(toRecorded);
    },

    async readCausedBy(streamId, causationId) {
      const rows = NAME_BASED_UUID.test(causationId)
        ? sql.readCausedByRepeatable.all(causationId, streamId)
        : sql.readCausedByScan.all(streamId, causationId);
      return (rows as unknown as EventRow[]).map(toRecorded);
    },

    async readSnapshot(streamId, { version, atOrBefore = Number.MAX_SAFE_INTEGER }) {
      const row = (
        typeof atOrBefore === 'number'
          ? sql.readSnapshot.get(streamId, atOrBefore, version)
          : 'position' in atOrBefore
            ? sql.readSnapshotByPosition.get(streamId, atOrBefore.position, version)
            : sql.readSnapshotByTime.get(streamId, atOrBefore.time, version)
      ) as SnapshotRow | undefined;
      if (!row) return undefined;
      return {
        version: row.version,
        revision: Number(row.revision),
        position: Number(row.position),
        time: row.time,
        state: JSON.parse(row.state),
      };
    },

    async longestStreams(limit) {
      // Ranked by their newest snapshot, then measured, twice as many as asked: a stream goes on
      // past its snapshot, so one ranked a little lower may be longer.
      const ranked = sql.snapshottedStreams.all(limit * 2) as { stream_id: string }[];
      return ranked
        .map(({ stream_id }) => ({ streamId: stream_id, events: Number((sql.streamLength.get(stream_id) as { events: number }).events) }))
        .sort((a, b) => b.events - a.events)
        .slice(0, limit);
    },

    saveSnapshot(streamId, snapshot) {
      if (closed) return Promise.reject(new Error('event store is closed'));
      return new Promise((resolve, reject) => {
        snapshotQueue.push({ streamId, snapshot, resolve, reject });
        scheduleFlush();
      });
    },

    async readAll({ after = 0, limit = READ_PAGE } = {}) {
      return readAllSync(after, limit);
    },

    async head() {
      return (sql.lastPosition.get() as { position: number }).position;
    },

    async *subscribeToAll({ after = 0, from, signal, onEvents }: SubscribeOptions = {}) {
      let position = from === undefined ? after : from - 1;
      let fresh = false;
      while (!closed && !signal?.aborted) {
        const page = followersPage(position, fresh);
        fresh = false;
        if (page.length > 0) onEvents?.();
        for (const event of page) {
          if (signal?.aborted) return;
          yield event;
          position = event.position;
        }
        if (page.length < READ_PAGE) {
          const last = (sql.lastPosition.get() as { position: number }).position;
          if (last <= position) await nextWake(signal);
          // Appended since that page was read (this turn's, read first by another follower): read the file again.
          else fresh = true;
        } else {
          // Catching up, every read answers at once: without a turn of the event loop per page, a
          // follower with a million events to go (a publisher on a freshly seeded store) held the
          // process for 18 s, so nothing else in it, /health included, answered until it was done.
          await nextTurn();
        }
      }
    },

    async *subscribeToTypes(types, { after = 0, from, signal }: SubscribeOptions = {}) {
      let position = from === undefined ? after : from - 1;
      const wanted = JSON.stringify(types);
      while (!closed && !signal?.aborted) {
        const head = (sql.lastPosition.get() as { position: number }).position;
        if (head <= position) {
          await nextWake(signal);
          continue;
        }
        const upTo = Math.min(head, position + TYPES_SPAN);
        const rows = sql.readTypes.all(position, upTo, wanted, READ_PAGE) as unknown as EventRow[];
        for (const row of rows) {
          if (signal?.aborted) return;
          yield toRecorded(row);
        }
        // A full page may leave more of the span to read: the next read starts after its last row.
        position = rows.length === READ_PAGE ? Number(rows[READ_PAGE - 1]!.position) : upTo;
        if (signal?.aborted) return;
        yield { reached: position };
        // Catching up: a turn of the event loop per read, as subscribeToAll takes one per page.
        if (position < head) await nextTurn();
      }
    },

    async close() {
      if (closed) return;
      flush();
      closed = true;
      otherThreads.close();
      wakeAll();
      db.close();
    },
  };
}
