// What an uploaded picture may be: the bounds the API states, and the service checks (the bytes
// first, then what they decode to: command-service/src/product/pictures.ts).

/** The media types taken, each checked against what the bytes are. */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The most bytes an upload may have: under the front door's bound on any body (10 MB). */
export const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

/**
 * The most pixels a picture may have, checked before it is decoded: a small file can claim a huge
 * picture (a decompression bomb), and decoding takes four bytes a pixel.
 */
export const MAX_PICTURE_PIXELS = 40_000_000;
