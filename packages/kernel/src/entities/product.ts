// The product, declared once (entity.ts says what derives from it): a catalogue entry's details,
// as its events store them and as a create or change must state them.
import { z } from 'zod';
import { text } from '../text.ts';
import { declareEntity, detail, optionalDetail } from './entity.ts';
import { money } from './values.ts';
import { price, taxRate } from './price.ts';
import { acceptedImages, storedImages } from './product-image.ts';

export const PRODUCT = declareEntity('product', 'productId', {
  name: detail(z.string(), text({ min: 1, max: 200 })),
  description: optionalDetail(z.string(), text({ max: 5000, multiline: true }), ''),
  price: detail(money, price),
  /** The tax included in the price, in percent of the price before tax; null when not stated (products listed before tax rates were). */
  taxRate: optionalDetail(z.number().min(0).max(100).nullable(), taxRate, null),
  sku: optionalDetail(z.string().nullable(), text({ min: 1, max: 64 }).nullable(), null),
  category: optionalDetail(z.string().nullable(), text({ min: 1, max: 100 }).nullable(), null),
  /** Its pictures, first shown first: each added by upload (POST /products/{id}/images); a change may reorder or drop them. */
  images: optionalDetail(storedImages, acceptedImages, []),
});
