// One payload of each public event at its current version, with every field the schema allows
// (the compatibility gate checks that none is left out): published with the schema
// (published.json), so that each later version must still read it (compatibility.ts), and shown
// to the readers of the event documentation.
import type { EventName, PayloadOf } from './catalogue.ts';

const USER = '01a21dd5-6147-7122-88ea-884f22a18454';
const PRODUCT = '01a21dd5-6190-76cd-8f5a-eb3f67b26e30';
const ORDER = '01a21dd5-61b1-733d-a6fd-0f4273efc494';
const EUR = (amount: number) => ({ amount, currency: 'EUR' });
const line = { productId: PRODUCT, quantity: 2, unitPrice: EUR(2999) };

export const EXAMPLES: { readonly [N in EventName]: PayloadOf<N> } = {
  'user:created': { userId: USER, name: 'Ada Lovelace', email: 'ada@example.com' },
  'user:updated': { userId: USER, changes: { name: 'Ada King', email: 'ada.king@example.com' } },
  'user:deleted': { userId: USER },
  'product:created': {
    productId: PRODUCT,
    name: 'Kettle',
    description: 'Boils a litre in two minutes',
    price: EUR(2999),
    taxRate: 20,
    sku: 'KET-1',
    category: 'Kitchen',
    images: [{ imageId: '5c0f4b0e9d6a4e2f8b1c3d7e6a9f0b21', width: 1600, height: 1200 }],
  },
  'product:updated': {
    productId: PRODUCT,
    changes: {
      name: 'Kettle 2',
      description: 'Quieter',
      price: EUR(2799),
      taxRate: 5.5,
      sku: 'KET-2',
      category: 'Kitchen',
      images: [{ imageId: '5c0f4b0e9d6a4e2f8b1c3d7e6a9f0b21', width: 1600, height: 1200 }],
    },
  },
  'product:deleted': { productId: PRODUCT },
  'order:created': { orderId: ORDER, userId: USER, lines: [line], status: 'draft', payment: null },
  'order:updated': {
    orderId: ORDER,
    changes: {
      lines: [{ ...line, quantity: 3 }],
      status: 'paid',
      payment: { amount: EUR(8997), method: 'card', reference: 'TX-20261129-0042' },
    },
  },
  'order:deleted': { orderId: ORDER },
};
