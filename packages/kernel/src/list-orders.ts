// The orders the lists can take besides newest first, and the values they compare, declared once:
// the read stores keep and index these keys (stores/read-store/list-keys.ts), and the API's `sort`
// parameter offers these orders (contract/resources/products/schemas.ts).
//
// Text keys compare byte by byte after folding ASCII capitals to small letters: every engine can
// do exactly that, so all of them answer in the same order.

export interface ListKey {
  /** Where the value sits in the document's fields. */
  path: readonly string[];
  type: 'text' | 'integer';
  /** Compared without regard to the case of ASCII letters. */
  foldCase?: boolean;
}

export const LIST_KEYS = {
  products: {
    currency: { path: ['price', 'currency'], type: 'text' },
    amount: { path: ['price', 'amount'], type: 'integer' },
    name: { path: ['name'], type: 'text', foldCase: true },
  },
} as const satisfies Readonly<Record<string, Record<string, ListKey>>>;

/**
 * The orders each collection can be listed in, by name: the keys compared in turn, then seq. A
 * price orders by currency first, so that amounts are compared only within one currency.
 */
export const SORTS = {
  users: {},
  orders: {},
  products: { price: ['currency', 'amount'], name: ['name'] },
} as const satisfies Readonly<Record<'users' | 'products' | 'orders', Readonly<Record<string, readonly string[]>>>>;

/** The orders of a collection, by name. */
export const sortsOf = (collection: keyof typeof SORTS): Readonly<Record<string, readonly string[]>> => SORTS[collection];
