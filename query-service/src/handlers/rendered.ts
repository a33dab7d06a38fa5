// Representations kept as JSON text by document and version. A product's representation at a
// version never changes (it is the strong ETag the API answers with), so it is rendered and
// serialised once and answered as text after: neither its stored body parsed nor the result
// serialised again, which together were about a sixth of the CPU time of a page of 20 products.
// Only for documents that hold no personal data: a person's erasure rewrites their documents
// without a new version, and nothing of theirs may stay in memory.
import { LRUCache } from 'lru-cache';
import type { Collection, ReadDocument } from '@eventide/stores/read-store/port.ts';
import type { Render } from './context.ts';

/** Representations kept: with a product's at about 500 bytes, some 5 MB. */
const KEPT = 10_000;

/** The document's representation as JSON text, rendered once per version. */
export function renderedJson<C extends Collection>(render: Render<C>, max = KEPT): (doc: ReadDocument<C>) => string {
  const kept = new LRUCache<string, string>({ max });
  return (doc) => {
    const key = `${doc.id}\n${doc.version}`;
    let json = kept.get(key);
    if (json === undefined) {
      json = JSON.stringify(render(doc.fields));
      kept.set(key, json);
    }
    return json;
  };
}

/** A JSON object of `items`, each JSON text already, and the fields of `rest` after them. */
export function withItems(items: string[], rest: Record<string, unknown>): string {
  const others = JSON.stringify(rest).slice(1, -1);
  return `{"items":[${items.join(',')}]${others === '' ? '' : `,${others}`}}`;
}
