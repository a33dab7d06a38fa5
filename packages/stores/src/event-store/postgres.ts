// The event store on PostgreSQL: for a team that outgrows one machine (processes on several
// hosts, one database, its replicas and backups). Appends arriving together in a process are sent
// as one batch, one statement and one commit (eventide_append, postgres-schema.ts, where the
// order of positions is explained); live subscriptions are woken by NOTIFY on that commit.
//
// The only file of the event store that speaks SQL to PostgreSQL; its own errors (a revision not
// expected, an id reused) come back as values and become ours here.
import type pg from 'pg';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import {
  checkAppends,
  EventIdReusedError,
  NAME_BASED_UUID,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type Snapshot,
  type StreamAppend,
  type SubscribeOptions,
} from './port.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';
import { reaching } from '../postgres/errors.ts';
import { Notifications } from '../postgres/notifications.ts';
import { APPENDED_CHANNEL, EVENT_STORE_STEPS } from './postgres-schema.ts';

export interface PostgresEventStoreOptions {
  url: string;
  /** Connections the store may hold; a batch of appends uses one. */
  poolSize?: number;
}

interface EventRow {
  position: string;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: RecordedEvent['data'];
  metadata: RecordedEvent['metadata'];
  time: string;
}

interface SnapshotRow {
  version: string;
  revision: number;
  position: string;
  time: string;
  state: Snapshot['state'];
}

type UnitAnswer =
  | { results: AppendResult[] }
  | { error: 'revision'; index: number; actual: number }
  | { error: 'reused'; index: number; eventId: string; detail: string };

interface PendingUnit {
  appends: StreamAppend[];
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

const READ_PAGE = 500;
/**
 * Appends (units) sent in one statement at most: enough to share a commit among all of a busy
 * process's writers, few enough that one statement's size, and the time it holds the append lock
 * (postgres-schema.ts), stay small whatever piles up while the server is slow.
 */
const BATCH_UNITS = 256;
const COLUMNS = 'position, event_id, stream_id, revision, type, data, metadata, time';

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    revision: row.revision,
    position: Number(row.position),
    time: row.time,
    data: row.data,
    metadata: row.metadata,
  };
}

function outcome(unit: PendingUnit, answer: UnitAnswer): void {
  if ('results' in answer) {
    unit.resolve(answer.results.map((r) => ({ nextRevision: r.nextRevision, position: Number(r.position), time: r.time })));
    return;
  }
  const failed = unit.appends[answer.index]!;
  if (answer.error === 'revision') unit.reject(new WrongExpectedRevisionError(failed.streamId, failed.expectedRevision, answer.actual));
  else unit.reject(new EventIdReusedError(answer.eventId, answer.detail));
}

const STORE = 'event store';

export async function openPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  const connections = openPool(options.url, options.poolSize);
  // Every statement through here: the server's absence is StoreUnavailableError, as callers expect.
  const query = <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    reaching(STORE, () => connections.query<Row>(text, values));
  await reaching(STORE, () => migrate(connections, 'event-store', EVENT_STORE_STEPS));
  const notifications = new Notifications(options.url, APPENDED_CHANNEL);

  let closed = false;
  const queue: PendingUnit[] = [];
  let flushing: Promise<void> | undefined;

  /** Sends what is queued as one batch; appends queued meanwhile go in the next one. */
  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, BATCH_UNITS);
      try {
        const { rows } = await query<{ answers: UnitAnswer[] }>('SELECT eventide_append($1::json) AS answers', [
          JSON.stringify(batch.map((unit) => unit.appends)),
        ]);
        for (const [i, unit] of batch.entries()) outcome(unit, rows[0]!.answers[i]!);
      } catch (error) {
        // Nothing of the batch is known to be written (a lost connection may have committed it: a
        // retry with the same event ids is answered with what was written, never written twice).
        for (const unit of batch) unit.reject(error);
      }
    }
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
      flushing ??= flush().finally(() => {
        flushing = undefined;
      });
    });
  }

  async function readAll(after: number, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2`, [after, limit]);
    return rows.map(toRecorded);
  }

  /**
   * Up to a page of the events of these types after `after`, and the head they were read up to,
   * in one statement: the others are passed over by the server, not sent.
   */
  async function readTypes(after: number, types: readonly string[]): Promise<{ head: number; events: RecordedEvent[] }> {
    const { rows } = await query<EventRow & { head: string }>(
      `WITH head AS (SELECT coalesce(max(position), 0) AS head FROM events)
       SELECT head.head, e.* FROM head LEFT JOIN LATERAL (
         SELECT ${COLUMNS} FROM events WHERE position > $1 AND position <= head.head AND type = ANY($2) ORDER BY position LIMIT $3
       ) e ON true`,
      [after, types, READ_PAGE],
    );
    const head = Number(rows[0]?.head ?? after);
    return { head, events: rows.filter((row) => row.position !== null).map(toRecorded) };
  }

  return {
    async append(streamId, events, { expectedRevision }) {
      const [result] = await enqueue([{ streamId, events, expectedRevision }]);
      return result!;
    },

    appendInOrder: enqueue,

    async readStream(streamId, { fromRevision = 0, toRevision = 2 ** 31 - 1 } = {}) {
      const { rows } = await query<EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND revision BETWEEN $2 AND $3 ORDER BY revision`,
        [streamId, fromRevision, Math.min(toRevision, 2 ** 31 - 1)],
      );
      return rows.map(toRecorded);
    },

    async readCausedBy(streamId, causationId) {
      // A name-based id is found by the cause index (its condition repeated, so the planner uses it).
      const text = NAME_BASED_UUID.test(causationId)
        ? `SELECT ${COLUMNS} FROM events WHERE metadata->>'causationId' = $2 AND substr(metadata->>'causationId', 15, 1) = '5' AND stream_id = $1 ORDER BY revision`
        : `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND metadata->>'causationId' = $2 ORDER BY revision`;
      const { rows } = await query<EventRow>(text, [streamId, causationId]);
      return rows.map(toRecorded);
    },

    async readSnapshot(streamId, { version, atOrBefore }) {
      const [bound, value] =
        atOrBefore === undefined
          ? ['true', null]
          : typeof atOrBefore === 'number'
            ? ['revision <= $3', atOrBefore]
            : 'position' in atOrBefore
              ? ['position <= $3', atOrBefore.position]
              : ['time <= $3', atOrBefore.time];
      const { rows } = await query<SnapshotRow>(
        `SELECT version, revision, position, time, state FROM snapshots
         WHERE stream_id = $1 AND version = $2 AND (${bound}) ORDER BY revision DESC LIMIT 1`,
        value === null ? [streamId, version] : [streamId, version, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return { version: row.version, revision: row.revision, position: Number(row.position), time: row.time, state: row.state };
    },

    async saveSnapshot(streamId, snapshot) {
      if (closed) throw new Error('event store is closed');
      // One statement: kept only if its last event is in the stream as it says, and the stream's
      // snapshots of other versions dropped with it.
      const { rowCount } = await query(
        `WITH at AS (
           SELECT 1 FROM events WHERE stream_id = $1 AND revision = $2 AND position = $3 AND time = $4
         ), dropped AS (
           DELETE FROM snapshots WHERE stream_id = $1 AND version <> $5 AND EXISTS (SELECT 1 FROM at)
         )
         INSERT INTO snapshots (stream_id, revision, version, position, time, state)
         SELECT $1, $2, $5, $3, $4, $6::json FROM at
         ON CONFLICT (stream_id, revision) DO UPDATE SET version = $5, position = $3, time = $4, state = $6::json`,
        [streamId, snapshot.revision, snapshot.position, snapshot.time, snapshot.version, JSON.stringify(snapshot.state)],
      );
      if (rowCount === 0) throw new TypeError(`snapshot of ${streamId} at revision ${snapshot.revision}: no such event in the stream`);
    },

    async longestStreams(limit) {
      // Ranked by their newest snapshot, then measured, twice as many as asked (as the embedded store does).
      const { rows } = await query<{ stream_id: string; events: number }>(
        `SELECT ranked.stream_id, (SELECT max(revision) + 1 FROM events WHERE stream_id = ranked.stream_id) AS events
         FROM (SELECT stream_id, max(revision) AS revision FROM snapshots GROUP BY stream_id ORDER BY 2 DESC LIMIT $1) AS ranked`,
        [limit * 2],
      );
      return rows
        .map((row) => ({ streamId: row.stream_id, events: Number(row.events) }))
        .sort((a, b) => b.events - a.events)
        .slice(0, limit);
    },

    readAll: ({ after = 0, limit = READ_PAGE } = {}) => readAll(after, limit),

    async head() {
      const { rows } = await query<{ position: string }>('SELECT coalesce(max(position), 0) AS position FROM events');
      return Number(rows[0]!.position);
    },

    async *subscribeToAll({ after = 0, from, signal, onEvents }: SubscribeOptions = {}) {
      let position = from === undefined ? after : from - 1;
      while (!closed && !signal?.aborted) {
        // Taken before the read: a commit notified while it runs is not waited for after it.
        const seen = notifications.count;
        let page: RecordedEvent[];
        try {
          page = await readAll(position, READ_PAGE);
        } catch (error) {
          // A read cut short by the store's close (its pool ended) ends the subscription quietly.
          if (closed || signal?.aborted) return;
          throw error;
        }
        if (page.length > 0) onEvents?.();
        for (const event of page) {
          if (signal?.aborted) return;
          yield event;
          position = event.position;
        }
        if (page.length < READ_PAGE) await notifications.next(seen, signal);
      }
    },

    async *subscribeToTypes(types, { after = 0, from, signal }: SubscribeOptions = {}) {
      let position = from === undefined ? after : from - 1;
      while (!closed && !signal?.aborted) {
        const seen = notifications.count;
        let found: { head: number; events: RecordedEvent[] };
        try {
          found = await readTypes(position, types);
        } catch (error) {
          if (closed || signal?.aborted) return;
          throw error;
        }
        for (const event of found.events) {
          if (signal?.aborted) return;
          yield event;
        }
        if (signal?.aborted) return;
        // Positions are handed out in commit order (postgres-schema.ts): nothing will appear below the head read.
        const reached = found.events.length === READ_PAGE ? found.events[READ_PAGE - 1]!.position : found.head;
        if (reached > position) {
          position = reached;
          yield { reached };
        }
        if (found.events.length < READ_PAGE) await notifications.next(seen, signal);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await flushing;
      await notifications.close();
      await connections.end();
    },
  };
}
