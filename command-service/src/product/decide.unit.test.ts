import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/given.ts';
import type { ProductEvent } from '@eventide/kernel/models/product/state.ts';
import { productAggregate } from './decide.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';

const given = deciderSpec(productAggregate);
const productId = '5d0b1c38-43a9-4f0e-9d6a-0f5f8a2b9c11';
const details = PRODUCT.complete({
  name: 'Kettle',
  description: 'Boils water',
  price: { amount: 2999, currency: 'EUR' },
  taxRate: 20,
  sku: 'K-1',
});
const created: ProductEvent = { type: 'product:created', data: { productId, ...details } };
const deleted: ProductEvent = { type: 'product:deleted', data: { productId } };

describe('product decider', () => {
  describe('CreateProduct', () => {
    it('creates a product', () => given().when({ type: 'CreateProduct', productId, details }).then([created]));
    it('refuses when the product exists', () =>
      given(created)
        .when({ type: 'CreateProduct', productId, details })
        .thenRefuses('conflict', /already exists/));
  });

  describe('ChangeProduct', () => {
    it('records only the fields that change, comparing prices by value', () =>
      given(created)
        .when({ type: 'ChangeProduct', changes: { price: { amount: 2999, currency: 'EUR' }, category: 'Kitchen' } })
        .then([{ type: 'product:updated', data: { productId, changes: { category: 'Kitchen' } } }]));
    it('records a new price', () =>
      given(created)
        .when({ type: 'ChangeProduct', changes: { price: { amount: 2499, currency: 'EUR' } } })
        .then([{ type: 'product:updated', data: { productId, changes: { price: { amount: 2499, currency: 'EUR' } } } }]));
    it('records nothing when nothing changes', () =>
      given(created)
        .when({ type: 'ChangeProduct', changes: { name: 'Kettle' } })
        .thenNothing());
    it('refuses an unknown product', () =>
      given()
        .when({ type: 'ChangeProduct', changes: { name: 'x' } })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a deleted product', () =>
      given(created, deleted)
        .when({ type: 'ChangeProduct', changes: { name: 'x' } })
        .thenRefuses('gone', /deleted/));
  });

  describe('DeleteProduct', () => {
    it('deletes a product', () => given(created).when({ type: 'DeleteProduct' }).then([deleted]));
    it('refuses an unknown product', () =>
      given()
        .when({ type: 'DeleteProduct' })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a product deleted already', () =>
      given(created, deleted)
        .when({ type: 'DeleteProduct' })
        .thenRefuses('gone', /deleted/));
  });
});
