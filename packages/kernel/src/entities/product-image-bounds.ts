// A product's pictures' bounds and sizes, without a schema: what the web app imports (its bundle
// holds no zod), and product-image.ts checks.

/** At most this many pictures a product: what a product page shows without paging. */
export const MAX_PRODUCT_IMAGES = 8;

/** The sizes each picture is kept in, by name: the width it is scaled down to (never up). */
export const IMAGE_RENDITIONS = { small: 320, large: 1280 } as const;
export type ImageRendition = keyof typeof IMAGE_RENDITIONS;
