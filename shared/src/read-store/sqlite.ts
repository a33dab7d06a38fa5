// Embedded read store on SQLite (node:sqlite), with FTS5 for product search. Fit for production
// on one node. synchronous=NORMAL is enough: documents and checkpoint commit together, so a
// power cut loses both at once and the projector replays from the older checkpoint.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  COLLECTIONS,
  FILTERABLE,
  type Collection,
  type DocumentWrite,
  type ListQuery,
  type ReadDocument,
  type ReadModelWriter,
  type ReadStore,
} from './port.ts';
import { ftsQuery, planQuery, relevance, SEARCH_CANDIDATES, searchTerms, vocabularyChanges, type Vocabulary } from './search-terms.ts';
import { countChanges, countKeyOf, countKeysOf } from './live-counts.ts';
import { openSqliteFile } from '../sqlite-file.ts';

interface Row {
  id: string;
  version: number;
  seq: number;
  deleted: number;
  body: string;
}

const column = (field: string) => `f_${field}`;
/** Indexed expression for userByEmail; lower() folds ASCII letters only. */
const EMAIL_KEY = "lower(trim(json_extract(body, '$.email')))";
const table = (collection: string, generation: number) => `${collection}_g${generation}`;

function schema(generation: number): string {
  const tables = COLLECTIONS.map((collection) => {
    const name = table(collection, generation);
    const filters = FILTERABLE[collection];
    const generated = filters.map((f) => `, ${column(f)} TEXT GENERATED ALWAYS AS (json_extract(body, '$.${f}')) VIRTUAL`).join('');
    const indexes = filters.map((f) => `CREATE INDEX IF NOT EXISTS ${name}_${f} ON ${name} (${column(f)}, deleted, seq);`).join('\n');
    return `
      CREATE TABLE IF NOT EXISTS ${name} (
        id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE,
        deleted INTEGER NOT NULL, body TEXT NOT NULL${generated});
      CREATE INDEX IF NOT EXISTS ${name}_live ON ${name} (deleted, seq);
      ${indexes}${collection === 'users' ? `\n      CREATE INDEX IF NOT EXISTS ${name}_email ON ${name} (${EMAIL_KEY});` : ''}`;
  });
  return `${tables.join('\n')}
    CREATE VIRTUAL TABLE IF NOT EXISTS ${table('products_fts', generation)}
      USING fts5(name, description, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
    ${NAMES_TABLE(generation)}
    ${TERMS_TABLE(generation)}
    CREATE TABLE IF NOT EXISTS ${table('checkpoints', generation)} (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    ${COUNTS_TABLE(generation)}`;
}

/**
 * Product names alone, so that "the newest products whose names match" reads the names' own
 * index instead of filtering every match of the full index by column.
 */
const NAMES_TABLE = (generation: number) => `CREATE VIRTUAL TABLE IF NOT EXISTS ${table('products_names_fts', generation)}
      USING fts5(name, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');`;

/** The words of live product names and how many names hold each: what query words are completed and corrected from. */
const TERMS_TABLE = (generation: number) => `CREATE TABLE IF NOT EXISTS ${table('products_name_terms', generation)} (
      term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;`;

/** Live documents per collection and filter values (live-counts.ts), kept with the documents. */
const COUNTS_TABLE = (generation: number) => `CREATE TABLE IF NOT EXISTS ${table('counts', generation)} (
      collection TEXT NOT NULL, fields TEXT NOT NULL, value TEXT NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (collection, fields, value)) WITHOUT ROWID;`;

/**
 * Fills the counts of a generation written before they were kept: once, when such a store is
 * opened, from the documents themselves.
 */
function countExisting(db: DatabaseSync, generation: number): void {
  const add = db.prepare(`INSERT INTO ${table('counts', generation)} (collection, fields, value, n) VALUES (?, ?, ?, ?)
    ON CONFLICT (collection, fields, value) DO UPDATE SET n = n + excluded.n`);
  for (const collection of COLLECTIONS) {
    const columns = FILTERABLE[collection].map((f) => `${column(f)} AS ${f}`);
    const rows = db
      .prepare(
        `SELECT ${['COUNT(*) AS n', ...columns].join(', ')} FROM ${table(collection, generation)} WHERE deleted = 0${
          columns.length > 0 ? ` GROUP BY ${FILTERABLE[collection].map(column).join(', ')}` : ''
        }`,
      )
      .all() as Array<Record<string, string | number | null>>;
    for (const row of rows) {
      if (Number(row.n) === 0) continue;
      for (const [fields, value] of countKeysOf(collection, row as Record<string, string | null>))
        add.run(collection, fields, value, Number(row.n));
    }
  }
}

function toDocument(row: Row): ReadDocument {
  return { id: row.id, version: Number(row.version), seq: Number(row.seq), deleted: row.deleted === 1, fields: JSON.parse(row.body) };
}

export function openSqliteReadStore(path: string): ReadStore {
  const db = openSqliteFile(path, 'NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS read_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT OR IGNORE INTO read_meta (key, value) VALUES ('active_generation', 1), ('last_generation', 1);
    CREATE TABLE IF NOT EXISTS follower_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
  `);
  // The generation being served gets what an older version of this store lacks (a newer index,
  // the counts), in one transaction.
  const atOpen = Number((db.prepare("SELECT value FROM read_meta WHERE key = 'active_generation'").get() as { value: number }).value);
  db.exec('BEGIN IMMEDIATE');
  try {
    const exists = (name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table(name, atOpen)) !== undefined;
    const counted = exists('counts');
    const named = exists('products_names_fts');
    const termed = exists('products_name_terms');
    db.exec(schema(atOpen));
    if (!counted) countExisting(db, atOpen);
    if (!named) {
      db.exec(`INSERT INTO ${table('products_names_fts', atOpen)} (rowid, name)
        SELECT seq, json_extract(body, '$.name') FROM ${table('products', atOpen)} WHERE deleted = 0`);
    }
    if (!termed) {
      // The names' own index knows its words and how many names hold each.
      db.exec(`CREATE VIRTUAL TABLE temp.name_words USING fts5vocab(main, '${table('products_names_fts', atOpen)}', 'row');
        INSERT INTO ${table('products_name_terms', atOpen)} (term, docs) SELECT term, doc FROM temp.name_words;
        DROP TABLE temp.name_words;`);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }

  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const meta = (key: string) => Number((prepare('SELECT value FROM read_meta WHERE key = ?').get(key) as { value: number }).value);
  /**
   * The generation reads are served from, remembered: looking it up on every read was a statement
   * (and a read transaction) of its own, more than the read itself costs. A promotion in this
   * process updates it; one in another process drops the old generation's tables right after, and
   * the first read that misses them looks again (onActive).
   */
  let served: number | undefined = atOpen;
  const active = () => (served ??= meta('active_generation'));

  /** Runs a read on the active generation; once more if a promotion dropped its tables meanwhile. */
  function onActive<T>(read: (generation: number) => T): T {
    try {
      return read(active());
    } catch (error) {
      if (!String((error as Error).message).includes('no such table')) throw error;
      statements.clear();
      served = undefined;
      return read(active());
    }
  }

  /** onActive for a read that awaits in between its statements. */
  async function onActiveAsync<T>(read: (generation: number) => Promise<T>): Promise<T> {
    try {
      return await read(active());
    } catch (error) {
      if (!String((error as Error).message).includes('no such table')) throw error;
      statements.clear();
      served = undefined;
      return read(active());
    }
  }

  /** The vocabulary of product names of a generation, for planQuery. */
  function vocabularyOf(generation: number): Vocabulary {
    const terms = table('products_name_terms', generation);
    const fts = table('products_fts', generation);
    return {
      async occurs(term, prefix) {
        // The whole word first: a prefix query gathers every word it starts before it answers.
        const probe = prepare(`SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT 1`);
        const quotedTerm = `"${term.replaceAll('"', '""')}"`;
        return probe.get(quotedTerm) !== undefined || (prefix && probe.get(`${quotedTerm}*`) !== undefined);
      },
      async startingWith(prefix, limit) {
        const rows = prepare(`SELECT term FROM ${terms} WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ?`).all(
          prefix,
          `${prefix}\u{10FFFF}`,
          limit,
        ) as Array<{ term: string }>;
        return rows.map((r) => r.term);
      },
      async existing(candidates, limit) {
        const rows = prepare(
          `SELECT term FROM ${terms} WHERE term IN (SELECT value FROM json_each(?)) ORDER BY docs DESC, term LIMIT ?`,
        ).all(JSON.stringify(candidates), limit) as Array<{ term: string }>;
        return rows.map((r) => r.term);
      },
    };
  }

  function transaction<T>(body: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = body();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  function writer(generation: number): ReadModelWriter {
    const checkpoints = table('checkpoints', generation);
    const fts = table('products_fts', generation);
    const counts = table('counts', generation);
    const names = table('products_names_fts', generation);
    const terms = table('products_name_terms', generation);

    function apply({ collection, doc, expectedVersion }: DocumentWrite): void {
      const name = table(collection, generation);
      const filterColumns = FILTERABLE[collection].map((f) => `, ${column(f)} AS ${f}`).join('');
      const oldName = collection === 'products' ? ", json_extract(body, '$.name') AS old_name" : '';
      const stored = prepare(`SELECT version, deleted${filterColumns}${oldName} FROM ${name} WHERE id = ?`).get(doc.id) as
        | ({ version: number; deleted: number; old_name?: string | null } & Record<string, string | null>)
        | undefined;
      const applies = expectedVersion === null ? stored === undefined : stored?.version === expectedVersion;
      if (!applies) return;
      const before = stored && stored.deleted === 0 ? countKeysOf(collection, stored) : [];
      const after = doc.deleted ? [] : countKeysOf(collection, doc.fields);
      for (const { key, delta } of countChanges(before, after)) {
        prepare(
          `INSERT INTO ${counts} (collection, fields, value, n) VALUES (?, ?, ?, ?)
           ON CONFLICT (collection, fields, value) DO UPDATE SET n = n + excluded.n`,
        ).run(collection, key[0], key[1], delta);
      }
      prepare(
        `INSERT INTO ${name} (id, version, seq, deleted, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, deleted = excluded.deleted, body = excluded.body`,
      ).run(doc.id, doc.version, doc.seq, doc.deleted ? 1 : 0, JSON.stringify(doc.fields));
      if (collection === 'products') {
        // A new product has nothing in the indexes to replace.
        if (stored !== undefined) {
          prepare(`DELETE FROM ${fts} WHERE rowid = ?`).run(doc.seq);
          prepare(`DELETE FROM ${names} WHERE rowid = ?`).run(doc.seq);
        }
        if (!doc.deleted) {
          const name = String(doc.fields.name ?? '');
          prepare(`INSERT INTO ${fts} (rowid, name, description) VALUES (?, ?, ?)`).run(
            doc.seq,
            name,
            String(doc.fields.description ?? ''),
          );
          prepare(`INSERT INTO ${names} (rowid, name) VALUES (?, ?)`).run(doc.seq, name);
        }
        const before = stored && stored.deleted === 0 ? String(stored.old_name ?? '') : undefined;
        const after = doc.deleted ? undefined : String(doc.fields.name ?? '');
        for (const [term, delta] of vocabularyChanges(before, after)) {
          prepare(`INSERT INTO ${terms} (term, docs) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs`).run(
            term,
            delta,
          );
          if (delta < 0) prepare(`DELETE FROM ${terms} WHERE term = ? AND docs <= 0`).run(term);
        }
      }
    }

    return {
      generation,
      async getMany(collection, ids) {
        const found = new Map<string, ReadDocument>();
        const select = prepare(`SELECT * FROM ${table(collection, generation)} WHERE id = ?`);
        for (const id of new Set(ids)) {
          const row = select.get(id) as Row | undefined;
          if (row) found.set(id, toDocument(row));
        }
        return found;
      },
      async write(writes, checkpoint) {
        transaction(() => {
          for (const write of writes) apply(write);
          prepare(
            `INSERT INTO ${checkpoints} (name, position) VALUES (?, ?)
             ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
          ).run(checkpoint.name, checkpoint.position);
        });
      },
      async checkpoint(name) {
        const row = prepare(`SELECT position FROM ${checkpoints} WHERE name = ?`).get(name) as { position: number } | undefined;
        return Number(row?.position ?? 0);
      },
    };
  }

  return {
    async activeGeneration() {
      served = meta('active_generation');
      return served;
    },

    async servedCheckpoint(name) {
      return onActive((g) => {
        const row = prepare(`SELECT position FROM ${table('checkpoints', g)} WHERE name = ?`).get(name) as { position: number } | undefined;
        return Number(row?.position ?? 0);
      });
    },

    async createGeneration() {
      return transaction(() => {
        const generation = meta('last_generation') + 1;
        prepare("UPDATE read_meta SET value = ? WHERE key = 'last_generation'").run(generation);
        db.exec(schema(generation));
        return generation;
      });
    },

    async promote(generation) {
      const previous = transaction(() => {
        const old = meta('active_generation');
        prepare("UPDATE read_meta SET value = ? WHERE key = 'active_generation'").run(generation);
        return old;
      });
      served = generation;
      if (previous === generation) return;
      statements.clear();
      transaction(() => {
        for (const name of [...COLLECTIONS, 'products_fts', 'products_names_fts', 'products_name_terms', 'checkpoints', 'counts'])
          db.exec(`DROP TABLE IF EXISTS ${table(name, previous)}`);
      });
    },

    writer,

    async loadCheckpoint(name) {
      const row = prepare('SELECT position FROM follower_checkpoints WHERE name = ?').get(name) as { position: number } | undefined;
      return Number(row?.position ?? 0);
    },

    async saveCheckpoint(name, position) {
      prepare(
        `INSERT INTO follower_checkpoints (name, position) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
      ).run(name, position);
    },

    async get(collection, id) {
      return onActive((g) => {
        const row = prepare(`SELECT * FROM ${table(collection, g)} WHERE id = ?`).get(id) as Row | undefined;
        return row ? toDocument(row) : undefined;
      });
    },

    async userByEmail(email) {
      return onActive((g) => {
        const row = prepare(`SELECT * FROM ${table('users', g)} WHERE ${EMAIL_KEY} = lower(trim(?)) AND deleted = 0`).get(email) as
          | Row
          | undefined;
        return row ? toDocument(row) : undefined;
      });
    },

    async list(collection: Collection, query: ListQuery) {
      return onActive((g) => {
        const name = table(collection, g);
        const conditions = ['deleted = 0'];
        const params: Array<string | number> = [];
        for (const [field, value] of Object.entries(query.filter ?? {})) {
          if (!FILTERABLE[collection].includes(field)) throw new TypeError(`${collection} cannot be filtered by ${field}`);
          conditions.push(`${column(field)} = ?`);
          params.push(value);
        }
        const where = conditions.join(' AND ');
        if ('beforeSeq' in query) {
          const rows = prepare(`SELECT * FROM ${name} WHERE ${where} AND seq < ? ORDER BY seq DESC LIMIT ?`).all(
            ...params,
            query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
            query.limit,
          ) as unknown as Row[];
          return { items: rows.map(toDocument) };
        }
        const rows = prepare(`SELECT * FROM ${name} WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(
          ...params,
          query.limit,
          query.offset,
        ) as unknown as Row[];
        const [fields, value] = countKeyOf(query.filter ?? {});
        const counted = prepare(`SELECT n FROM ${table('counts', g)} WHERE collection = ? AND fields = ? AND value = ?`).get(
          collection,
          fields,
          value,
        ) as { n: number } | undefined;
        return { items: rows.map(toDocument), total: Number(counted?.n ?? 0) };
      });
    },

    async search(text, limit) {
      if (searchTerms(text).length === 0) return [];
      return onActiveAsync(async (g) => {
        const query = await planQuery(text, vocabularyOf(g));
        const match = ftsQuery(query);
        // Newest first is the index's own order, so each stops after SEARCH_CANDIDATES rows
        // however many products match; ranking all of them was what made common words slow.
        const seqs = new Set<number>();
        for (const index of [table('products_names_fts', g), table('products_fts', g)]) {
          const newest = prepare(`SELECT rowid FROM ${index} WHERE ${index} MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES}`);
          for (const row of newest.all(match) as Array<{ rowid: number }>) seqs.add(Number(row.rowid));
        }
        if (seqs.size === 0) return [];
        const rows = prepare(
          `SELECT * FROM ${table('products', g)} WHERE seq IN (${[...seqs].map(() => '?').join(', ')}) AND deleted = 0`,
        ).all(...seqs) as unknown as Row[];
        return rows
          .map((row) => {
            const doc = toDocument(row);
            return { doc, score: relevance(doc.fields, query) };
          })
          .sort((a, b) => b.score - a.score || b.doc.seq - a.doc.seq)
          .slice(0, limit);
      });
    },

    async close() {
      statements.clear();
      db.close();
    },
  };
}
