// An uploaded picture, checked and made into the sizes the pages use (IMAGE_RENDITIONS), by sharp
// (libvips). What the bytes are is read from the bytes, never taken from the Content-Type: a file
// that is not a JPEG, PNG or WebP picture, or is another kind than it says, is refused (415). The
// size a picture claims is checked before it is decoded (a decompression bomb is a few bytes that
// claim a huge picture). Metadata is not kept: EXIF can say where a photo was taken.
import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import pLimit from 'p-limit';
import { IMAGE_RENDITIONS, type ImageRendition, type ProductImage } from '@eventide/kernel/entities/product-image.ts';
import { MAX_PICTURE_PIXELS, type PICTURE_TYPES } from '@eventide/kernel/entities/product-image-bounds.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { Renditions } from '@eventide/stores/image-store/port.ts';

/** The media type of each format sharp reads that is taken; others (SVG, GIF, TIFF, HEIF…) are not. */
const TAKEN: Readonly<Record<string, (typeof PICTURE_TYPES)[number]>> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
/** A taken format as people name it. */
const NAMED: Readonly<Record<string, string>> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };
const WHAT_IS_TAKEN = 'JPEG, PNG and WebP pictures are taken';

/**
 * Pictures made one at a time: decoding takes up to four bytes a pixel (160 MB at the most pixels
 * taken), so a few uploads at once cannot take the process's memory, and libvips's threads stay
 * free for the rest.
 */
const inTurn = pLimit(1);
/**
 * sharp, loaded with the first picture: loading it and libvips took 100 ms on two cores
 * (2026-11-30) at every start, for a feature only admins use, and seldom.
 */
let loaded: Promise<typeof import('sharp')> | undefined;
const loadSharp = async () => {
  loaded ??= import('sharp');
  return (await loaded).default;
};

/** Pictures waiting for their turn, at most: each waits with its body in memory (up to 8 MiB), so more are refused, not queued. */
export const MAX_WAITING = 4;

export interface Picture {
  image: ProductImage;
  renditions: Renditions;
}

/** The picture `bytes` hold, sent as `declared`, in every size; or a problem naming the body. */
export function makePicture(bytes: Buffer, declared: string): Promise<Picture> {
  if (inTurn.pendingCount >= MAX_WAITING) {
    return Promise.reject(problems.busy(`${MAX_WAITING} pictures are waiting to be made already; send this one again in a moment`));
  }
  return inTurn(async () => {
    const sharp = await loadSharp();
    let metadata: Metadata;
    try {
      metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw problems.unsupportedMediaType(`is not a picture: ${WHAT_IS_TAKEN}`);
    }
    const type = TAKEN[metadata.format];
    if (type === undefined) throw problems.unsupportedMediaType(`is ${metadata.format.toUpperCase()}: ${WHAT_IS_TAKEN}`);
    if (type !== declared) {
      throw problems.unsupportedMediaType(
        `is a ${NAMED[type]} picture, not ${NAMED[declared] ?? declared} as its Content-Type (${declared}) says`,
      );
    }
    const pixels = metadata.width * metadata.height;
    if (pixels > MAX_PICTURE_PIXELS) {
      throw problems.invalidField(
        '(body)',
        `has ${pixels.toLocaleString('en')} pixels; at most ${MAX_PICTURE_PIXELS.toLocaleString('en')} are taken`,
      );
    }
    // Turned upright as the camera said (EXIF orientation 5 to 8 turn it a quarter).
    const turned = (metadata.orientation ?? 1) >= 5;
    const image: ProductImage = {
      imageId: createHash('sha256').update(bytes).digest('hex').slice(0, 32),
      width: turned ? metadata.height : metadata.width,
      height: turned ? metadata.width : metadata.height,
    };
    const source = sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: 'error' }).rotate();
    try {
      const entries = await Promise.all(
        (Object.entries(IMAGE_RENDITIONS) as Array<[ImageRendition, number]>).map(async ([rendition, width]) => [
          rendition,
          await source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer(),
        ]),
      );
      return { image, renditions: Object.fromEntries(entries) as Renditions };
    } catch {
      throw problems.invalidField('(body)', 'could not be read whole: it is damaged or cut short');
    }
  });
}
