// A product's picture as its events hold it: an id the image store keeps its renditions under, and
// the size of the picture as uploaded (after its orientation was applied), so that pages can keep
// its place before it loads. The bytes are never in an event (stores/image-store).
import { z } from 'zod';

/** At most this many pictures a product: what a product page shows without paging. */
export const MAX_PRODUCT_IMAGES = 8;

/** The sizes each picture is kept in, by name: the width it is scaled down to (never up). */
export const IMAGE_RENDITIONS = { small: 320, large: 1280 } as const;
export type ImageRendition = keyof typeof IMAGE_RENDITIONS;

export const productImage = z.strictObject({
  imageId: z.string().regex(/^[0-9a-f]{32}$/, 'an image id, as an upload answers it'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ProductImage = z.infer<typeof productImage>;

/** What events may hold, and what a change may state (pictures come by upload; a change orders or drops them). */
export const storedImages = z.array(productImage);
export const acceptedImages = z.array(productImage).max(MAX_PRODUCT_IMAGES, `a product has at most ${MAX_PRODUCT_IMAGES} pictures`);
