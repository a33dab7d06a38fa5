// A product's picture as its events hold it: an id the image store keeps its renditions under, and
// the size of the picture as uploaded (after its orientation was applied), so that pages can keep
// its place before it loads. The bytes are never in an event (stores/image-store).
import { z } from 'zod';
import { MAX_PRODUCT_IMAGES } from './product-image-bounds.ts';

export { IMAGE_RENDITIONS, type ImageRendition, MAX_PRODUCT_IMAGES } from './product-image-bounds.ts';

export const productImage = z.strictObject({
  imageId: z.string().regex(/^[0-9a-f]{32}$/, 'an image id, as an upload answers it'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ProductImage = z.infer<typeof productImage>;

/** What events may hold, and what a change may state (pictures come by upload; a change orders or drops them). */
export const storedImages = z.array(productImage);
export const acceptedImages = z.array(productImage).max(MAX_PRODUCT_IMAGES, `a product has at most ${MAX_PRODUCT_IMAGES} pictures`);
