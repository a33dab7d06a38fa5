// Product search's index in the PostgreSQL read store: told of each product write in the batch's
// transaction (read-store/postgres-indexes.ts), it keeps in step with the product documents
// - two `tsvector` columns on each product's row, under GIN indexes: the words of its name and
//   description, and those of its name alone. They are made from the words as words() splits them
//   (array_to_tsvector), not by a text search configuration, so PostgreSQL matches exactly the
//   words the planner and the ranking see, as FTS5 does with its own tokenizer on SQLite;
// - the vocabularies planQuery reads: the words of names with how many live products hold each,
//   and each one's one-letter-shorter variants (for typos); the words of names and descriptions.
import { words } from '@eventide/kernel/search/words.ts';
import type { PostgresReadModelIndex, Query, Replaced } from '../read-store/postgres-indexes.ts';
import { table } from '../read-store/postgres-schema.ts';
import { deletionVariants, type ProductText, vocabularyChanges } from './planner.ts';

const allText = ({ name, description }: ProductText) => `${name} ${description}`;
/** A text's words as sent for a tsvector column: words() never yields a space. */
const wordsSent = (text: string) => [...new Set(words(text))].join(' ');

export const SEARCH_TABLES = ['products_name_terms', 'products_name_variants', 'products_terms'] as const;

export function searchSchema(g: number): string {
  const products = table('products', g);
  // COLLATE "C": a prefix is a range of bytes, so `term >= $1 AND term < $1 || U+10FFFF` reads the index.
  return `
    CREATE INDEX IF NOT EXISTS ${products}_words ON ${products} USING gin (words);
    CREATE INDEX IF NOT EXISTS ${products}_name_words ON ${products} USING gin (name_words);
    CREATE TABLE IF NOT EXISTS ${table('products_name_terms', g)} (term text COLLATE "C" PRIMARY KEY, docs integer NOT NULL);
    CREATE TABLE IF NOT EXISTS ${table('products_name_variants', g)} (
      variant text COLLATE "C" NOT NULL, term text COLLATE "C" NOT NULL, PRIMARY KEY (variant, term));
    CREATE INDEX IF NOT EXISTS ${table('products_name_variants', g)}_term ON ${table('products_name_variants', g)} (term);
    CREATE TABLE IF NOT EXISTS ${table('products_terms', g)} (term text COLLATE "C" PRIMARY KEY, docs integer NOT NULL);`;
}

const asVector = (sent: string) => `array_to_tsvector(string_to_array(${sent}, ' '))`;

export const postgresProductIndex: PostgresReadModelIndex = {
  name: 'product-search',
  collection: 'products',
  columns: [
    {
      name: 'words',
      type: 'tsvector',
      valueOf: (doc) => (doc.deleted ? '' : wordsSent(allText(doc.fields as ProductText))),
      from: asVector,
    },
    {
      name: 'name_words',
      type: 'tsvector',
      valueOf: (doc) => (doc.deleted ? '' : wordsSent((doc.fields as ProductText).name)),
      from: asVector,
    },
  ],
  tables: SEARCH_TABLES,
  schema: searchSchema,
  before: { name: "body::json->>'name'", description: "body::json->>'description'" },
  batch(generation) {
    /** Vocabulary deltas, summed over the batch: a thousand new products make their words one row each. */
    const names = new Map<string, number>();
    const all = new Map<string, number>();
    const add = (sums: Map<string, number>, deltas: Array<[string, number]>) => {
      for (const [term, delta] of deltas) sums.set(term, (sums.get(term) ?? 0) + delta);
    };
    return {
      applied(write, replaced: Replaced | undefined) {
        if (write.collection !== 'products') return;
        const { doc } = write;
        const after = doc.deleted ? undefined : { name: doc.fields.name, description: doc.fields.description };
        const before =
          replaced && !replaced.deleted
            ? { name: String(replaced.before.name ?? ''), description: String(replaced.before.description ?? '') }
            : undefined;
        add(names, vocabularyChanges(before?.name, after?.name));
        add(all, vocabularyChanges(before && allText(before), after && allText(after)));
      },
      async flush(query) {
        await countNameWords(query, generation, names);
        await countWords(query, table('products_terms', generation), all);
      },
    };
  },
};

/** Adds the deltas to a vocabulary's counts, and forgets the words no live product holds any more; returns the words new to it and those gone. */
async function countWords(query: Query, terms: string, deltas: Map<string, number>): Promise<{ added: string[]; gone: string[] }> {
  const changed = [...deltas].filter(([, delta]) => delta !== 0);
  if (changed.length === 0) return { added: [], gone: [] };
  // xmax is 0 on a row this statement inserted, not on one it updated.
  const counted = await query<{ term: string; docs: number; inserted: boolean }>(
    `INSERT INTO ${terms} (term, docs) SELECT * FROM unnest($1::text[], $2::integer[])
     ON CONFLICT (term) DO UPDATE SET docs = ${terms}.docs + excluded.docs
     RETURNING term, docs, xmax = 0 AS inserted`,
    [changed.map(([term]) => term), changed.map(([, delta]) => delta)],
  );
  const gone = counted.filter((row) => row.docs <= 0).map((row) => row.term);
  if (gone.length > 0) await query(`DELETE FROM ${terms} WHERE term = ANY($1::text[])`, [gone]);
  return { added: counted.filter((row) => row.inserted && row.docs > 0).map((row) => row.term), gone };
}

/** The names' vocabulary, with the variants of the words it gains and loses. */
async function countNameWords(query: Query, generation: number, deltas: Map<string, number>): Promise<void> {
  const { added, gone } = await countWords(query, table('products_name_terms', generation), deltas);
  const variants = table('products_name_variants', generation);
  if (gone.length > 0) await query(`DELETE FROM ${variants} WHERE term = ANY($1::text[])`, [gone]);
  if (added.length === 0) return;
  const pairs = added.flatMap((term) => deletionVariants(term).map((variant) => [variant, term] as const));
  await query(`INSERT INTO ${variants} (variant, term) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`, [
    pairs.map(([variant]) => variant),
    pairs.map(([, term]) => term),
  ]);
}
