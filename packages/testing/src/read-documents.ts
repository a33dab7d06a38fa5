// Read documents for tests and benchmarks: each collection's fields as the projector writes them
// (ReadFields), with only what a test is about given and the rest plain.
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';
import type { DocumentWrite, ReadDocument, ReadFields } from '@eventide/stores/read-store/port.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';

const TIME = '2026-01-01T00:00:00.000Z';
let nextSeq = 1;

type Options<C extends keyof ReadFields> = Partial<Omit<ReadDocument<C>, 'fields'>>;

function document<C extends keyof ReadFields>(id: string, fields: ReadFields[C], options: Options<C>): ReadDocument<C> {
  return { id, version: 0, seq: nextSeq++, deleted: false, fields, ...options };
}

export function userDoc(id: string, person: { name?: string; email?: string } = {}, options: Options<'users'> = {}): ReadDocument<'users'> {
  const { name = `User ${id}`, email = `${id}@example.org` } = person;
  return document(id, { status: 'active', userId: id, name, email, createdAt: TIME, updatedAt: TIME, version: 0 }, options);
}

export function productDoc(
  id: string,
  name: string,
  description = '',
  options: Options<'products'> & { category?: string; price?: { amount: number; currency: string } } = {},
): ReadDocument<'products'> {
  const { category = null, price = { amount: 100, currency: 'EUR' }, ...rest } = options;
  return document(
    id,
    {
      status: 'active',
      productId: id,
      ...PRODUCT.complete({ name, description, price, category }),
      createdAt: TIME,
      updatedAt: TIME,
      version: 0,
    },
    rest,
  );
}

export function orderDoc(
  id: string,
  userId: string,
  status: OrderStatus = 'draft',
  options: Options<'orders'> = {},
): ReadDocument<'orders'> {
  return document(id, { status, orderId: id, userId, lines: [], payment: null, createdAt: TIME, updatedAt: TIME, version: 0 }, options);
}

/** The document at its next version, with some fields changed (and deleted, if so): a write that expects the one before. */
export function changed<C extends keyof ReadFields>(
  collection: C,
  doc: ReadDocument<C>,
  version: number,
  fields: Partial<ReadFields[C]> = {},
  deleted = false,
): DocumentWrite<C> {
  return { collection, doc: { ...doc, version, deleted, fields: { ...doc.fields, ...fields } }, expectedVersion: version - 1 };
}
