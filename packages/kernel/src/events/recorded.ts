// An event as a command decides it (NewEvent) and as the store gives it back (RecordedEvent): what
// every layer speaks of, from the models that fold events to the stores that keep them and the bus
// that carries them, so it stands with the catalogue, below all of them.
import type { EventMetadata } from './catalogue.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface NewEvent {
  /** A UUID. Appending an event whose id is already in the stream writes nothing (idempotence). */
  id: string;
  type: string;
  data: JsonValue;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  type: string;
  streamId: string;
  revision: number;
  /** Position in the global log, strictly increasing in commit order; 0 is "before the first". */
  position: number;
  time: string;
  data: JsonValue;
  metadata: EventMetadata;
  /**
   * Set when the personal fields of this event read as null because the person they are about was
   * forgotten (their key destroyed: docs/privacy.md). Absent otherwise.
   */
  forgotten?: true;
  /**
   * Set by a follower's read of the log (subscribeToAll, readAll) when this release cannot read the
   * event as the current version of its type (a newer release wrote it, or its upcast failed):
   * why, in words. Its data is then as stored, and must not be folded or passed on as current: a
   * follower parks it (docs/operations.md#faults). A read of one stream throws instead.
   */
  unreadable?: string;
}
