// EventStoreDB adapter (@eventstore/db-client). Fit for production: many processes, a cluster.
// The only file that imports the client; it translates the vendor's errors into ours.
//
// Global position: the commit position of the event in $all. Without explicit transactions
// (which this client cannot write), commit positions strictly increase event by event, so one
// number is enough to resume: we pass it as both commit and prepare position.
//
// Snapshots are events of their own streams (`snapshot-<stream>`), hidden from reads of the log.
// The server has no index by causation: finding what a retried command did reads its stream.
import {
  ANY,
  EventStoreDBClient,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendExpectedRevision,
  type Position,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision, type Snapshot, type SnapshotBound } from './port.ts';
import type { JsonValue, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import { ofTypes } from './types-subscription.ts';

interface VendorRecorded {
  id: string;
  type: string;
  streamId: string;
  revision: bigint;
  created: Date;
  data: unknown;
  metadata: unknown;
  position?: Position;
}

function toVendorExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function toPosition(position: number): Position {
  return { commit: BigInt(position), prepare: BigInt(position) };
}

function toRecorded(event: VendorRecorded, commitPosition: bigint | undefined): RecordedEvent {
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    // Reads of a single stream come from the index, which may not know the commit position.
    position: Number(event.position?.commit ?? commitPosition ?? -1),
    time: event.created.toISOString(),
    data: event.data as JsonValue,
    metadata: event.metadata as EventMetadata,
  };
}

const SNAPSHOT = 'snapshot';
const snapshotStreamOf = (streamId: string) => `${SNAPSHOT}-${streamId}`;

/** Events of our own streams: not the server's (`$…`), not snapshots. */
function isOurs(event: VendorRecorded): boolean {
  return !event.type.startsWith('$') && !event.streamId.startsWith('$') && event.type !== SNAPSHOT;
}

function translate(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion === NO_STREAM ? -1 : Number(error.actualVersion);
    return new WrongExpectedRevisionError(streamId, expected, actual);
  }
  return error;
}

export function openEventStoreDb(connectionString: string): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);

  async function readEvents(streamId: string, range: { fromRevision?: bigint; maxCount?: number }): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, range)) {
        if (resolved.event) events.push(toRecorded(resolved.event as VendorRecorded, resolved.commitPosition));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  const store: EventStore = {
    async append(streamId, events, { expectedRevision }) {
      if (events.length === 0) throw new TypeError('an append needs at least one event');
      try {
        const result = await client.appendToStream(
          streamId,
          events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata })),
          { expectedRevision: toVendorExpected(expectedRevision) },
        );
        // The server answers a repeated append of the same ids with the original result. It does
        // not say when it recorded the events, so read the last one back for its time.
        const revision = Number(result.nextExpectedRevision);
        let time = new Date().toISOString();
        for await (const resolved of client.readStream(streamId, { fromRevision: result.nextExpectedRevision, maxCount: 1 })) {
          if (resolved.event) time = resolved.event.created.toISOString();
        }
        return { nextRevision: revision, position: Number(result.position?.commit ?? -1), time };
      } catch (error) {
        throw translate(error, streamId, expectedRevision);
      }
    },

    // This client writes one stream per call: in order, each after the one before succeeded.
    async appendInOrder(appends) {
      if (appends.length === 0) throw new TypeError('appendInOrder needs at least one append');
      const results = [];
      for (const { streamId, events, expectedRevision } of appends)
        results.push(await store.append(streamId, events, { expectedRevision }));
      return results;
    },

    async readStream(streamId, { fromRevision = 0, toRevision } = {}) {
      if (toRevision !== undefined && toRevision < fromRevision) return [];
      const range = {
        fromRevision: BigInt(fromRevision),
        ...(toRevision === undefined ? {} : { maxCount: toRevision - fromRevision + 1 }),
      };
      return readEvents(streamId, range);
    },

    async readCausedBy(streamId, causationId) {
      const events = await readEvents(streamId, {});
      return events.filter((e) => e.metadata.causationId === causationId);
    },

    async readSnapshot(streamId, { version, atOrBefore = Number.MAX_SAFE_INTEGER }) {
      try {
        for await (const resolved of client.readStream(snapshotStreamOf(streamId), { direction: 'backwards', fromRevision: 'end' })) {
          const snapshot = resolved.event?.data as Snapshot | undefined;
          if (snapshot?.version === version && within(snapshot, atOrBefore)) return snapshot;
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return undefined;
        throw error;
      }
      return undefined;
    },

    async saveSnapshot(streamId, snapshot) {
      const [last] = await readEvents(streamId, { fromRevision: BigInt(snapshot.revision), maxCount: 1 });
      if (!last || last.revision !== snapshot.revision || last.time !== snapshot.time) {
        throw new TypeError(`snapshot of ${streamId} at revision ${snapshot.revision}: no such event in the stream`);
      }
      await client.appendToStream(snapshotStreamOf(streamId), jsonEvent({ type: SNAPSHOT, data: snapshot as never }));
    },

    async readAll({ after = 0, limit = 500 } = {}) {
      const events: RecordedEvent[] = [];
      const read = client.readAll({ fromPosition: after > 0 ? toPosition(after) : 'start', maxCount: limit + 1 });
      for await (const resolved of read) {
        const event = resolved.event as VendorRecorded | undefined;
        if (!event || !isOurs(event)) continue;
        const recorded = toRecorded(event, resolved.commitPosition);
        if (recorded.position <= after) continue; // reading from a position includes it
        events.push(recorded);
        if (events.length === limit) break;
      }
      return events;
    },

    async head() {
      // The last of our events; past a run of system events, the log's end is as good a bound.
      let end = 0;
      for await (const resolved of client.readAll({ fromPosition: 'end', direction: 'backwards', maxCount: 50 })) {
        const event = resolved.event as VendorRecorded | undefined;
        if (!event) continue;
        const position = Number(event.position?.commit ?? 0);
        if (isOurs(event)) return position;
        end ||= position;
      }
      return end;
    },

    async *subscribeToAll({ after = 0, from, signal, onEvents } = {}) {
      // Reading from a position includes it: `after` leaves it out below, `from` keeps it.
      const start = from ?? after;
      const subscription = client.subscribeToAll({
        fromPosition: start > 0 ? toPosition(start) : 'start',
        filter: excludeSystemEvents(),
      });
      const stop = () => void subscription.unsubscribe();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        for await (const resolved of subscription) {
          if (signal?.aborted) return;
          const event = resolved.event as VendorRecorded | undefined;
          if (!event || !isOurs(event)) continue;
          const recorded = toRecorded(event, resolved.commitPosition);
          if (from === undefined ? recorded.position <= after : recorded.position < from) continue;
          onEvents?.();
          yield recorded;
        }
      } finally {
        signal?.removeEventListener('abort', stop);
        await subscription.unsubscribe();
      }
    },

    // Filtered here, not on the server: the same filter has to leave the system events out too.
    subscribeToTypes: (types, options) => ofTypes(store.subscribeToAll(options), types),

    async close() {
      await client.dispose();
    },
  };
  return store;
}

/** Whether a snapshot is at or before the bound: a revision, a position or a time. */
function within(snapshot: Snapshot, bound: SnapshotBound): boolean {
  if (typeof bound === 'number') return snapshot.revision <= bound;
  return 'position' in bound ? snapshot.position <= bound.position : snapshot.time <= bound.time;
}
