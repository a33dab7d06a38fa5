import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/given.ts';
import type { ProductEvent } from '@eventide/kernel/models/product/state.ts';
import { productAggregate } from './decide.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { MAX_PRODUCT_IMAGES } from '@eventide/kernel/entities/product-image.ts';

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

  describe('pictures', () => {
    const picture = (n: number) => ({ imageId: n.toString(16).padStart(32, '0'), width: 800, height: 600 });
    const withPictures = (...images: ReturnType<typeof picture>[]): ProductEvent => ({
      type: 'product:updated',
      data: { productId, changes: { images } },
    });
    it('adds an uploaded picture after the others', () =>
      given(created, withPictures(picture(1)))
        .when({ type: 'AddProductImage', image: picture(2) })
        .then([withPictures(picture(1), picture(2))]));
    it('refuses a picture beyond the most a product may have, naming images', () =>
      given(created, withPictures(...Array.from({ length: MAX_PRODUCT_IMAGES }, (_, i) => picture(i))))
        .when({ type: 'AddProductImage', image: picture(99) })
        .thenRefuses('unprocessable', /at most|the most it may/));
    it('reorders and drops pictures by a change', () =>
      given(created, withPictures(picture(1), picture(2), picture(3)))
        .when({ type: 'ChangeProduct', changes: { images: [picture(3), picture(1)] } })
        .then([withPictures(picture(3), picture(1))]));
    it('refuses a change or a create naming a picture the product does not have, or one twice', () => {
      given(created, withPictures(picture(1)))
        .when({ type: 'ChangeProduct', changes: { images: [picture(1), picture(2)] } })
        .thenRefuses('unprocessable', /images\.1: is not one of this product's pictures/);
      given(created, withPictures(picture(1)))
        .when({ type: 'ChangeProduct', changes: { images: [picture(1), picture(1)] } })
        .thenRefuses('invalid', /images\.1: names a picture twice/);
      given()
        .when({ type: 'CreateProduct', productId, details: { ...details, images: [picture(1)] } })
        .thenRefuses('unprocessable', /images\.0/);
    });
    it('refuses a picture for a deleted product', () =>
      given(created, deleted)
        .when({ type: 'AddProductImage', image: picture(1) })
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
