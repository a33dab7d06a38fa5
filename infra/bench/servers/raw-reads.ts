// The fair floor for the read routes: a Koa handler running the same SELECTs our read store runs,
// on the same read.db (the generation it serves), and nothing else: no query validation, no
// consistency check, no rate limit, no cursor signing, no representation, no ranking, no search
// vocabulary (its query is the words as typed, which is ours for any word that needs no
// completion or correction; a last word longer than the prefix index stands, as in ours, for
// the words it starts, read from the same table). Each route
// answers the rows' stored JSON, as ours answers its own rendering of them. A product's history
// reads its stream's events from the same events.db, newest first, and answers them as stored:
// no folding, no changes per field, no actors looked up, no access check.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Koa from 'koa';
import { ftsQuery, literalQuery, SEARCH_CANDIDATES } from '@eventide/stores/product-search/planner.ts';
import { withPrefixWords, wordsStartingWith } from '@eventide/stores/product-search/sqlite-schema.ts';
// A LIMIT bound as a parameter is written as ours are, so that SQLite does not prepare each statement
// again at every page (sqlite-file.ts): a floor that did would be slower than plain code needs to be.
import { LIMIT_PLACEHOLDER } from '@eventide/stores/sqlite-file.ts';

const db = new DatabaseSync(join(process.env.DATA_DIR!, 'read.db'), { readOnly: true });
const generation = Number((db.prepare("SELECT value FROM read_meta WHERE key = 'active_generation'").get() as { value: number }).value);
const t = (name: string) => `${name}_g${generation}`;
const sql = {
  newest: db.prepare(`SELECT body, seq FROM ${t('products')} WHERE deleted = 0 AND seq < ? ORDER BY seq DESC LIMIT ${LIMIT_PLACEHOLDER}`),
  page: db.prepare(`SELECT body FROM ${t('products')} WHERE deleted = 0 ORDER BY seq DESC LIMIT ${LIMIT_PLACEHOLDER} OFFSET ?`),
  count: db.prepare(`SELECT n FROM ${t('counts')} WHERE collection = 'products' AND fields = '' AND value = ''`),
  byId: db.prepare(`SELECT body FROM ${t('products')} WHERE id = ?`),
  // The orders and the price range (stores/read-store/list-sql.ts), on the same columns and indexes.
  cheapest: db.prepare(
    `SELECT body, seq FROM ${t('products')} WHERE deleted = 0 ORDER BY k_currency, k_amount, seq LIMIT ${LIMIT_PLACEHOLDER}`,
  ),
  byName: db.prepare(`SELECT body, seq FROM ${t('products')} WHERE deleted = 0 ORDER BY k_name, seq LIMIT ${LIMIT_PLACEHOLDER}`),
  inRange: db.prepare(
    `SELECT body, seq FROM ${t('products')} WHERE deleted = 0 AND k_currency = ? AND k_amount >= ? AND k_amount <= ? ORDER BY seq DESC LIMIT ${LIMIT_PLACEHOLDER}`,
  ),
  cheapestInRange: db.prepare(
    `SELECT body, seq FROM ${t('products')} WHERE deleted = 0 AND k_currency = ? AND k_amount >= ? AND k_amount <= ? ORDER BY k_currency, k_amount, seq LIMIT ${LIMIT_PLACEHOLDER}`,
  ),
  names: db.prepare(
    `SELECT rowid FROM ${t('products_names_fts')} WHERE ${t('products_names_fts')} MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES}`,
  ),
  texts: db.prepare(
    `SELECT rowid FROM ${t('products_fts')} WHERE ${t('products_fts')} MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES}`,
  ),
};
/** Prepared once per distinct IN list, as our read store keeps its statements. */
const inLists = new Map<number, ReturnType<DatabaseSync['prepare']>>();
function bySeqs(count: number) {
  let statement = inLists.get(count);
  if (!statement) {
    statement = db.prepare(`SELECT body FROM ${t('products')} WHERE seq IN (${Array(count).fill('?').join(', ')}) AND deleted = 0`);
    inLists.set(count, statement);
  }
  return statement;
}
const expansionStatements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
const prepared = (text: string) => {
  let statement = expansionStatements.get(text);
  if (!statement) {
    statement = db.prepare(text);
    expansionStatements.set(text, statement);
  }
  return statement;
};
const events = new DatabaseSync(join(process.env.DATA_DIR!, 'events.db'), { readOnly: true });
const stream = events.prepare(
  'SELECT revision, type, data, metadata, time FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 20',
);
const bodies = (rows: unknown[]) => (rows as Array<{ body: string }>).map((r) => JSON.parse(r.body));

const app = new Koa();
app.use((ctx) => {
  const path = ctx.path;
  if (path === '/api/products' && (ctx.query.sort !== undefined || ctx.query.currency !== undefined)) {
    const { sort, currency, minPrice, maxPrice } = ctx.query as Record<string, string | undefined>;
    const range = [currency!, Number(minPrice ?? 0), Number(maxPrice ?? Number.MAX_SAFE_INTEGER)] as const;
    const rows =
      currency === undefined
        ? (sort === 'name' ? sql.byName : sql.cheapest).all(21)
        : (sort === 'price' ? sql.cheapestInRange : sql.inRange).all(...range, 21);
    ctx.body = { items: bodies(rows.slice(0, 20)), nextSeq: (rows[19] as { seq: number } | undefined)?.seq ?? null };
  } else if (path === '/api/products') {
    const rows = sql.newest.all(Number.MAX_SAFE_INTEGER, 21);
    ctx.body = { items: bodies(rows.slice(0, 20)), nextSeq: (rows[19] as { seq: number } | undefined)?.seq ?? null };
  } else if (path === '/products') {
    const rows = sql.page.all(20, 0);
    ctx.body = { items: bodies(rows), total: Number((sql.count.get() as { n: number } | undefined)?.n ?? 0) };
  } else if (path.startsWith('/products/') && path.endsWith('/history')) {
    const rows = stream.all(`product-${path.slice('/products/'.length, -'/history'.length)}`) as Array<{ data: string; metadata: string }>;
    if (rows.length === 0) ctx.status = 404;
    else ctx.body = { items: rows.map((row) => ({ ...row, data: JSON.parse(row.data), metadata: JSON.parse(row.metadata) })) };
  } else if (path.startsWith('/products/')) {
    const row = sql.byId.get(path.slice('/products/'.length)) as { body: string } | undefined;
    if (row) ctx.body = JSON.parse(row.body);
    else ctx.status = 404;
  } else if (path === '/search') {
    const match = ftsQuery(
      literalQuery(String(ctx.query.q ?? '')).map((word) =>
        withPrefixWords(word, (prefix) => wordsStartingWith(prepared, generation, prefix)),
      ),
    );
    const seqsOf = (statement: typeof sql.texts) => (statement.all(match) as Array<{ rowid: number }>).map((row) => Number(row.rowid));
    const seqs = new Set(seqsOf(sql.texts));
    // As ours: the names' index only when the full index has more matches than it read.
    if (seqs.size === SEARCH_CANDIDATES) for (const seq of seqsOf(sql.names)) seqs.add(seq);
    const rows = seqs.size === 0 ? [] : bySeqs(seqs.size).all(...seqs);
    ctx.body = { items: bodies(rows).slice(0, 20) };
  } else {
    ctx.status = 404;
  }
});
// FLOOR_PORT with SO_REUSEPORT: several floor processes share one port as our threads do (serve.ts), and the
// kernel shares its connections out among them the same way: the floor's own scaling over processes.
const server = app.listen(
  { port: Number(process.env.FLOOR_PORT ?? 0), host: '127.0.0.1', reusePort: process.env.FLOOR_PORT !== undefined },
  () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })),
);
