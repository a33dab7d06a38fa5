// Webhooks on SQLite, in tables of the read models' file, over a connection of their own. Fit for
// production on one node: the projector's process sends, any process on the node reads and changes.
import { inWriteTransaction, LIMIT_PLACEHOLDER, openSqliteFile, statementCache } from '../sqlite-file.ts';
import type { WebhookStore } from './port.ts';
import { DELIVERY_COLUMNS, type DeliveryRow, FIRST_OF_ITS_ENTITY, deliveryValues, outcomeValues, toDelivery, toEndpoint } from './rows.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id TEXT PRIMARY KEY, body TEXT NOT NULL, enabled INTEGER NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL,
    entity TEXT NOT NULL, position INTEGER NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL,
    attempts INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL, first_attempt_at INTEGER,
    last_attempt_at TEXT, last_status INTEGER, last_error TEXT, delivered_at TEXT, created_at TEXT NOT NULL,
    leased_until INTEGER) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_by_entity ON webhook_deliveries (endpoint_id, entity, status, position);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, position);`;

export function openSqliteWebhookStore(path: string): WebhookStore {
  const db = openSqliteFile(path, 'NORMAL');
  db.exec(SCHEMA);
  const prepare = statementCache(db);
  type Param = string | number | null;
  const all = <R>(sql: string, ...params: Param[]) => prepare(sql).all(...params) as unknown as R[];
  const run = (sql: string, ...params: Param[]) => prepare(sql).run(...params);
  const deliveries = (sql: string, ...params: Param[]) => all<DeliveryRow>(sql, ...params).map(toDelivery);

  return {
    async addEndpoint(endpoint, max) {
      return inWriteTransaction(db, () => {
        const [{ n }] = all<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints') as [{ n: number }];
        if (n >= max) return 'full' as const;
        run(
          'INSERT INTO webhook_endpoints (id, body, enabled, created_at) VALUES (?, ?, ?, ?)',
          endpoint.id,
          JSON.stringify(endpoint),
          endpoint.enabled ? 1 : 0,
          endpoint.createdAt,
        );
        return 'added' as const;
      });
    },
    async endpoint(id) {
      const [row] = all<{ body: string }>('SELECT body FROM webhook_endpoints WHERE id = ?', id);
      return row ? toEndpoint(row) : undefined;
    },
    async endpoints() {
      return all<{ body: string }>('SELECT body FROM webhook_endpoints ORDER BY created_at, id').map(toEndpoint);
    },
    async saveEndpoint(endpoint) {
      const saved = run(
        'UPDATE webhook_endpoints SET body = ?, enabled = ? WHERE id = ?',
        JSON.stringify(endpoint),
        endpoint.enabled ? 1 : 0,
        endpoint.id,
      );
      return Number(saved.changes) > 0;
    },
    async disable(id, reason, at, dropped = 0) {
      inWriteTransaction(db, () => {
        const [row] = all<{ body: string }>('SELECT body FROM webhook_endpoints WHERE id = ?', id);
        if (!row) return;
        const endpoint = toEndpoint(row);
        const next = endpoint.enabled
          ? { ...endpoint, enabled: false, disabledReason: reason, disabledAt: at, dropped: endpoint.dropped + dropped, updatedAt: at }
          : { ...endpoint, dropped: endpoint.dropped + dropped };
        run('UPDATE webhook_endpoints SET body = ?, enabled = 0 WHERE id = ?', JSON.stringify(next), id);
      });
    },
    async removeEndpoint(id) {
      return inWriteTransaction(db, () => {
        run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', id);
        return Number(run('DELETE FROM webhook_endpoints WHERE id = ?', id).changes) > 0;
      });
    },
    async enqueue(batch, maxQueued) {
      const refused = new Map<string, number>();
      if (batch.length === 0) return refused;
      inWriteTransaction(db, () => {
        const insert = prepare(
          `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS.join(', ')}) VALUES (${DELIVERY_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (id) DO NOTHING`,
        );
        const waiting = new Map<string, number>();
        for (const delivery of batch) {
          let count = waiting.get(delivery.endpointId);
          if (count === undefined) {
            count = all<{ n: number }>(
              "SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'",
              delivery.endpointId,
            )[0]!.n;
          }
          if (count >= maxQueued) {
            refused.set(delivery.endpointId, (refused.get(delivery.endpointId) ?? 0) + 1);
            waiting.set(delivery.endpointId, count);
            continue;
          }
          const added = Number(insert.run(...deliveryValues(delivery)).changes);
          waiting.set(delivery.endpointId, count + added);
        }
      });
      return refused;
    },
    async claim(now, limit, leaseMs, skip = []) {
      return inWriteTransaction(db, () => {
        const found = deliveries(
          `SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled = 1
           WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.leased_until IS NULL OR d.leased_until < ?)
             AND d.endpoint_id NOT IN (SELECT value FROM json_each(?))
             AND ${FIRST_OF_ITS_ENTITY}
           ORDER BY d.next_attempt_at, d.position LIMIT ${LIMIT_PLACEHOLDER}`,
          now,
          now,
          JSON.stringify(skip),
          limit,
        );
        for (const delivery of found) run('UPDATE webhook_deliveries SET leased_until = ? WHERE id = ?', now + leaseMs, delivery.id);
        return found;
      });
    },
    async record(id, o) {
      run(
        `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, first_attempt_at = ?, last_attempt_at = ?,
           last_status = ?, last_error = ?, delivered_at = ?, leased_until = NULL WHERE id = ?`,
        ...outcomeValues(o),
        id,
      );
    },
    async delivery(id) {
      return deliveries('SELECT * FROM webhook_deliveries WHERE id = ?', id)[0];
    },
    async deliveries(endpointId, { before, limit }) {
      return before === undefined
        ? deliveries(
            `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY position DESC LIMIT ${LIMIT_PLACEHOLDER}`,
            endpointId,
            limit,
          )
        : deliveries(
            `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND position < ? ORDER BY position DESC LIMIT ${LIMIT_PLACEHOLDER}`,
            endpointId,
            before,
            limit,
          );
    },
    async redeliver(id, now) {
      run(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, first_attempt_at = NULL, leased_until = NULL WHERE id = ?`,
        now,
        id,
      );
      return deliveries('SELECT * FROM webhook_deliveries WHERE id = ?', id)[0];
    },
    async nextDue() {
      const [row] = all<{ at: number | null }>(
        `SELECT min(d.next_attempt_at) AS at FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled = 1
         WHERE d.status = 'pending' AND ${FIRST_OF_ITS_ENTITY}`,
      );
      return row?.at ?? undefined;
    },
    async pending(endpointId) {
      return all<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'", endpointId)[0]!
        .n;
    },
    async prune(keep) {
      for (const { id } of all<{ id: string }>('SELECT id FROM webhook_endpoints')) {
        run(
          `DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND status != 'pending' AND position <
             (SELECT position FROM webhook_deliveries WHERE endpoint_id = ? AND status != 'pending' ORDER BY position DESC LIMIT 1 OFFSET ?)`,
          id,
          id,
          keep - 1,
        );
      }
    },
    async close() {
      db.close();
    },
  };
}
