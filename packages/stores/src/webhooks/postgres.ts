// Webhooks on PostgreSQL (DATABASE_URL): tables beside the read models, shared by every process on
// the database; claims are row locks (FOR UPDATE SKIP LOCKED) and leases, so that senders in
// several processes never send one delivery at once.
import type pg from 'pg';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';
import { inTransaction } from '../postgres/transaction.ts';
import type { WebhookEndpoint, WebhookStore } from './port.ts';
import { DELIVERY_COLUMNS, type DeliveryRow, FIRST_OF_ITS_ENTITY, deliveryValues, outcomeValues, toDelivery, toEndpoint } from './rows.ts';

const STORE = 'webhooks';

/** The webhooks' migration steps, in order; a new step is added at the end, never an old one changed. */
const WEBHOOK_STEPS: readonly string[] = [
  `CREATE TABLE webhook_endpoints (
     id         text    PRIMARY KEY,
     body       text    NOT NULL,
     enabled    boolean NOT NULL,
     created_at text    NOT NULL
   );
   CREATE TABLE webhook_deliveries (
     id               text    PRIMARY KEY,
     endpoint_id      text    NOT NULL,
     event_id         text    NOT NULL,
     event_type       text    NOT NULL,
     entity           text    NOT NULL,
     position         bigint  NOT NULL,
     payload          text    NOT NULL,
     status           text    NOT NULL,
     attempts         integer NOT NULL,
     next_attempt_at  bigint  NOT NULL,
     first_attempt_at bigint,
     last_attempt_at  text,
     last_status      integer,
     last_error       text,
     delivered_at     text,
     created_at       text    NOT NULL,
     leased_until     bigint
   );
   CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
   CREATE INDEX webhook_deliveries_by_entity ON webhook_deliveries (endpoint_id, entity, status, position);
   CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, position);`,
];

const TYPES = ['text', 'text', 'text', 'text', 'text', 'bigint', 'text', 'text', 'integer', 'bigint', 'text'] as const;

export async function openPostgresWebhookStore(url: string): Promise<WebhookStore> {
  const connections = openPool(url, 3);
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    reaching(STORE, () => connections.query<R>(text, values));
  const deliveries = async (text: string, values: unknown[]) => (await query<DeliveryRow>(text, values)).rows.map(toDelivery);
  await reaching(STORE, () => migrate(connections, 'webhooks', WEBHOOK_STEPS));

  const transaction = <T>(body: (client: pg.PoolClient) => Promise<T>) => reaching(STORE, () => inTransaction(connections, body));
  /** Endpoint writes take one lock, so that the bound on their number holds under concurrency. */
  const lockEndpoints = (client: pg.PoolClient) => client.query("SELECT pg_advisory_xact_lock(hashtext('eventide:webhook-endpoints'))");

  return {
    addEndpoint: (endpoint, max) =>
      transaction(async (client) => {
        await lockEndpoints(client);
        const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM webhook_endpoints');
        if (Number(rows[0]!.n) >= max) return 'full' as const;
        await client.query('INSERT INTO webhook_endpoints (id, body, enabled, created_at) VALUES ($1, $2, $3, $4)', [
          endpoint.id,
          JSON.stringify(endpoint),
          endpoint.enabled,
          endpoint.createdAt,
        ]);
        return 'added' as const;
      }),
    async endpoint(id) {
      const { rows } = await query<{ body: string }>('SELECT body FROM webhook_endpoints WHERE id = $1', [id]);
      return rows[0] ? toEndpoint(rows[0]) : undefined;
    },
    async endpoints() {
      return (await query<{ body: string }>('SELECT body FROM webhook_endpoints ORDER BY created_at, id')).rows.map(toEndpoint);
    },
    async saveEndpoint(endpoint) {
      const saved = await query('UPDATE webhook_endpoints SET body = $1, enabled = $2 WHERE id = $3', [
        JSON.stringify(endpoint),
        endpoint.enabled,
        endpoint.id,
      ]);
      return (saved.rowCount ?? 0) > 0;
    },
    disable: (id, reason, at, dropped = 0) =>
      transaction(async (client) => {
        const { rows } = await client.query<{ body: string }>('SELECT body FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [id]);
        if (!rows[0]) return;
        const endpoint = toEndpoint(rows[0]);
        const next: WebhookEndpoint = endpoint.enabled
          ? { ...endpoint, enabled: false, disabledReason: reason, disabledAt: at, dropped: endpoint.dropped + dropped, updatedAt: at }
          : { ...endpoint, dropped: endpoint.dropped + dropped };
        await client.query('UPDATE webhook_endpoints SET body = $1, enabled = false WHERE id = $2', [JSON.stringify(next), id]);
      }),
    removeEndpoint: (id) =>
      transaction(async (client) => {
        await client.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
        return ((await client.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])).rowCount ?? 0) > 0;
      }),
    async enqueue(batch, maxQueued) {
      const refused = new Map<string, number>();
      if (batch.length === 0) return refused;
      const byEndpoint = Map.groupBy(batch, (d) => d.endpointId);
      await transaction(async (client) => {
        for (const [endpointId, list] of byEndpoint) {
          // One queue at a time: two batches for one endpoint cannot both pass its bound.
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`eventide:webhook-queue:${endpointId}`]);
          const { rows } = await client.query<{ n: string }>(
            "SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'",
            [endpointId],
          );
          const room = Math.max(0, maxQueued - Number(rows[0]!.n));
          const unique = [...new Map(list.map((d) => [d.id, d])).values()];
          const { rows: fresh } = await client.query<{ id: string }>(
            'SELECT id FROM unnest($1::text[]) AS id WHERE id NOT IN (SELECT id FROM webhook_deliveries WHERE id = ANY($1::text[]))',
            [unique.map((d) => d.id)],
          );
          const isFresh = new Set(fresh.map((r) => r.id));
          const queued = unique.filter((d) => isFresh.has(d.id));
          const taken = queued.slice(0, room);
          if (queued.length > taken.length) refused.set(endpointId, queued.length - taken.length);
          if (taken.length === 0) continue;
          const values = taken.map(deliveryValues);
          await client.query(
            `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS.join(', ')})
             SELECT * FROM unnest(${TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) ON CONFLICT (id) DO NOTHING`,
            TYPES.map((_, i) => values.map((row) => row[i])),
          );
        }
      });
      return refused;
    },
    claim: (now, limit, leaseMs, skip = []) =>
      transaction(async (client) => {
        const { rows } = await client.query<DeliveryRow>(
          `SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
           WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.leased_until IS NULL OR d.leased_until < $1)
             AND NOT d.endpoint_id = ANY($3::text[])
             AND ${FIRST_OF_ITS_ENTITY}
           ORDER BY d.next_attempt_at, d.position LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
          [now, limit, [...skip]],
        );
        if (rows.length > 0) {
          await client.query('UPDATE webhook_deliveries SET leased_until = $1 WHERE id = ANY($2::text[])', [
            now + leaseMs,
            rows.map((r) => r.id),
          ]);
        }
        return rows.map(toDelivery);
      }),
    async record(id, o) {
      await query(
        `UPDATE webhook_deliveries SET status = $1, attempts = $2, next_attempt_at = $3, first_attempt_at = $4, last_attempt_at = $5,
           last_status = $6, last_error = $7, delivered_at = $8, leased_until = NULL WHERE id = $9`,
        [...outcomeValues(o), id],
      );
    },
    async delivery(id) {
      return (await deliveries('SELECT * FROM webhook_deliveries WHERE id = $1', [id]))[0];
    },
    deliveries: (endpointId, { before, limit }) =>
      before === undefined
        ? deliveries('SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY position DESC LIMIT $2', [endpointId, limit])
        : deliveries('SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 AND position < $2 ORDER BY position DESC LIMIT $3', [
            endpointId,
            before,
            limit,
          ]),
    async redeliver(id, now) {
      return (
        await deliveries(
          `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $1, first_attempt_at = NULL, leased_until = NULL
           WHERE id = $2 RETURNING *`,
          [now, id],
        )
      )[0];
    },
    async nextDue() {
      const { rows } = await query<{ at: string | null }>(
        `SELECT min(d.next_attempt_at) AS at FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
         WHERE d.status = 'pending' AND ${FIRST_OF_ITS_ENTITY}`,
      );
      return rows[0]?.at == null ? undefined : Number(rows[0].at);
    },
    async pending(endpointId) {
      const { rows } = await query<{ n: string }>(
        "SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'",
        [endpointId],
      );
      return Number(rows[0]!.n);
    },
    async prune(keep) {
      await query(
        `DELETE FROM webhook_deliveries d USING (
           SELECT id, row_number() OVER (PARTITION BY endpoint_id ORDER BY position DESC) AS n
           FROM webhook_deliveries WHERE status <> 'pending') ranked
         WHERE d.id = ranked.id AND ranked.n > $1`,
        [keep],
      );
    },
    close: () => connections.end(),
  };
}
