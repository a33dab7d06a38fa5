// A parked event as both SQL adapters keep it: one row, its columns named alike. What differs is
// how the driver hands them back (PostgreSQL's bigints as text, its jsonb parsed; SQLite's
// numbers, its JSON as text), which toParked takes either way.
import type { ParkedEvent, ParkedRequest } from './port.ts';

export interface ParkedRow {
  lot: string;
  position: number | string;
  event_id: string;
  stream_id: string;
  revision: number | string;
  type: string;
  time: string;
  reason: string;
  behind: number | string | null;
  attempts: number;
  parked_at: string;
  last_attempt_at: string;
  request: string | ParkedRequest | null;
}

export function toParked(row: ParkedRow): ParkedEvent {
  return {
    lot: row.lot,
    position: Number(row.position),
    eventId: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.revision),
    type: row.type,
    time: row.time,
    reason: row.reason,
    ...(row.behind === null ? {} : { behind: Number(row.behind) }),
    attempts: Number(row.attempts),
    parkedAt: row.parked_at,
    lastAttemptAt: row.last_attempt_at,
    ...(row.request === null
      ? {}
      : { request: typeof row.request === 'string' ? (JSON.parse(row.request) as ParkedRequest) : row.request }),
  };
}

/** A parked event's values in the order of its row's columns (ParkedRow's), as both adapters write them. */
export const rowValues = (e: ParkedEvent) => [
  e.lot,
  e.position,
  e.eventId,
  e.streamId,
  e.revision,
  e.type,
  e.time,
  e.reason,
  e.behind ?? null,
  e.attempts,
  e.parkedAt,
  e.lastAttemptAt,
  e.request ? JSON.stringify(e.request) : null,
];
