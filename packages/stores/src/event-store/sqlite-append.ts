// How the embedded event store (sqlite.ts) writes one append inside a group commit's
// transaction: the revision it expects checked, its events inserted, and a repeat of an
// earlier append answered with that append's result.
//
// A repeat is looked for only where the append cannot go ahead: on a revision it does not
// expect, or when its first event's id is taken. Looking first, for every append, was one more
// statement each, and statements are most of an append's cost.
import type { DatabaseSync } from 'node:sqlite';
import { EventIdReusedError, WrongExpectedRevisionError, type AppendResult, type StreamAppend } from './port.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';

/** SQLITE_CONSTRAINT_UNIQUE: an insert refused by a unique index (node:sqlite's `errcode`). */
const UNIQUE_CONSTRAINT = 2067;
const isUniquenessFailure = (error: unknown) => (error as { errcode?: unknown }).errcode === UNIQUE_CONSTRAINT;
const isEventIdTaken = (error: unknown) => String((error as Error).message).includes('events.event_id');

type Found = { stream_id: string; revision: number; position: number; time: string } | undefined;

/** Writes one append; the caller holds the transaction (and the savepoint that undoes a partial append). */
export function sqliteAppendWriter(db: DatabaseSync, clock: () => Date): (append: StreamAppend) => AppendResult {
  const sql = {
    currentRevision: db.prepare('SELECT MAX(revision) AS revision FROM events WHERE stream_id = ?'),
    findEvent: db.prepare('SELECT stream_id, revision, position, time FROM events WHERE event_id = ?'),
    insert: db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, time) VALUES (?, ?, ?, ?, ?, ?, ?)'),
  };

  function currentRevision(streamId: string): number {
    const row = sql.currentRevision.get(streamId) as { revision: number | null };
    return row.revision ?? -1;
  }

  /**
   * A repeat of an earlier append (same ids, same stream, same order) returns its result. Only
   * the first id is looked up: if it is new, a reused id further on trips the unique index.
   */
  function findDuplicate(streamId: string, events: NewEvent[]): AppendResult | undefined {
    const first = sql.findEvent.get(events[0]!.id) as Found;
    if (!first) return undefined;
    const found = events.map((e, i) => (i === 0 ? first : (sql.findEvent.get(e.id) as Found)));
    found.forEach((f, i) => {
      const event = events[i]!;
      if (!f) throw new EventIdReusedError(event.id, 'only part of this append was written before');
      if (f.stream_id !== streamId) throw new EventIdReusedError(event.id, `it belongs to stream ${f.stream_id}`);
      if (f.revision !== first.revision + i) throw new EventIdReusedError(event.id, 'it was written in another order');
    });
    const last = found[found.length - 1]!;
    return { nextRevision: last.revision, position: Number(last.position), time: last.time };
  }

  /**
   * Inserts the events from revision `first` on. A refused first insert throws SQLite's own error,
   * with nothing written, for the caller to tell why; a taken id further on is EventIdReusedError.
   */
  function insertFrom(first: number, { streamId, events }: StreamAppend): AppendResult {
    const time = clock().toISOString();
    let position = 0;
    for (const [i, event] of events.entries()) {
      try {
        const { data, metadata } = event;
        const written = sql.insert.run(event.id, streamId, first + i, event.type, JSON.stringify(data), JSON.stringify(metadata), time);
        position = Number(written.lastInsertRowid);
      } catch (error) {
        if (i === 0 || !isEventIdTaken(error)) throw error;
        throw new EventIdReusedError(event.id, 'it is already in the log');
      }
    }
    return { nextRevision: first + events.length - 1, position, time };
  }

  /**
   * An append that expects no stream is inserted without reading the stream's revision first:
   * streams start at revision 0 and nothing is ever deleted from them, so the insert at revision 0
   * is refused exactly when the stream exists. Refused (the stream exists, or the first event's id
   * is taken), the append takes the checked way, which says which it was and finds a repeat. A
   * statement less for every new stream: each sign-up makes two (its email's claim and the user).
   */
  function appendToNewStream(append: StreamAppend): AppendResult | undefined {
    try {
      return insertFrom(0, append);
    } catch (error) {
      if (isUniquenessFailure(error)) return undefined;
      throw error;
    }
  }

  function appendChecked(append: StreamAppend): AppendResult {
    const { streamId, events, expectedRevision } = append;
    const current = currentRevision(streamId);
    const satisfied =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current === -1) ||
      (expectedRevision === 'stream_exists' && current >= 0) ||
      expectedRevision === current;
    if (!satisfied) {
      const duplicate = findDuplicate(streamId, events);
      if (duplicate) return duplicate;
      throw new WrongExpectedRevisionError(streamId, expectedRevision, current);
    }
    try {
      return insertFrom(current + 1, append);
    } catch (error) {
      if (!isEventIdTaken(error)) throw error;
      // Nothing of this append is written yet when its first id is taken: a repeat of it?
      const duplicate = findDuplicate(streamId, events);
      if (duplicate) return duplicate;
      throw new EventIdReusedError(events[0]!.id, 'it is already in the log');
    }
  }

  return (append) => (append.expectedRevision === 'no_stream' && appendToNewStream(append)) || appendChecked(append);
}
