// Pictures for tests, made by the same library the service reads them with: a plain picture of a
// size and format, and files that only look like pictures.
import sharp from 'sharp';

export type PictureFormat = 'png' | 'jpeg' | 'webp';

/** A picture of one colour (or a gradient of two), in a format, with EXIF when asked. */
export function picture(
  width: number,
  height: number,
  format: PictureFormat = 'png',
  options: { orientation?: number } = {},
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#c0392b"/><stop offset="1" stop-color="#2980b9"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const made = sharp(Buffer.from(svg));
  const withMetadata = options.orientation ? made.withMetadata({ orientation: options.orientation }) : made;
  return withMetadata.toFormat(format).toBuffer();
}

export const MEDIA_TYPE: Record<PictureFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** What sharp says of a picture's bytes: its format and size. */
export async function pictureOf(bytes: Buffer): Promise<{ format: string; width: number; height: number; exif: boolean }> {
  const metadata = await sharp(bytes).metadata();
  return { format: metadata.format, width: metadata.width, height: metadata.height, exif: metadata.exif !== undefined };
}
