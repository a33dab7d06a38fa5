// A product's pictures' bounds and sizes, without a schema: what the web app imports (its bundle
// holds no zod), product-image.ts checks, and the upload checks (the bytes first, then what they
// decode to: command-service/src/product/pictures.ts).

/** At most this many pictures a product: what a product page shows without paging. */
export const MAX_PRODUCT_IMAGES = 8;

/** The sizes each picture is kept in, by name: the width it is scaled down to (never up). */
export const IMAGE_RENDITIONS = { small: 320, large: 1280 } as const;
export type ImageRendition = keyof typeof IMAGE_RENDITIONS;

/** The media types taken, each checked against what the bytes are. */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The most bytes an upload may have: under the front door's bound on any body (10 MB). */
export const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

/**
 * The most pixels a picture may have, checked before it is decoded: a small file can claim a huge
 * picture (a decompression bomb), and decoding takes four bytes a pixel.
 */
export const MAX_PICTURE_PIXELS = 40_000_000;
