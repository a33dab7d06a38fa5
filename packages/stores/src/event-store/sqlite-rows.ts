// How the embedded event store's rows (sqlite.ts) become events.
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';

/** A row of the events table, as node:sqlite reads it. */
export interface EventRow {
  position: number;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  time: string;
}

/**
 * A row as an event. A row whose data or metadata is not JSON (a file damaged, or written by hand)
 * is one event that cannot be read, not a read that fails: it comes marked `unreadable`, for a
 * follower to park it and a fold to refuse it (versioned.ts), and the rest of the log is read.
 */
export function toRecorded(row: EventRow): RecordedEvent {
  const place = {
    id: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: Number(row.position),
    time: row.time,
  };
  try {
    return { ...place, data: JSON.parse(row.data), metadata: JSON.parse(row.metadata) };
  } catch (error) {
    const metadata = { correlationId: '', causationId: '', actor: { type: 'system' as const, name: 'unknown' } };
    return { ...place, data: null, metadata, unreadable: `its stored data is not JSON (${(error as Error).message})` };
  }
}
