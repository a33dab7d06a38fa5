// Where products' pictures are kept: each picture's renditions (kernel/entities/product-image.ts),
// written before the event that names the picture is appended, so that no event ever names one
// that is not there. A picture is never changed once kept: its id names those bytes for ever.
import type { ImageRendition } from '@eventide/kernel/entities/product-image.ts';

export type Renditions = Readonly<Record<ImageRendition, Buffer>>;

export interface ImageStore {
  /** Keeps a picture's renditions, durably, before it answers. */
  put(imageId: string, renditions: Renditions): Promise<void>;
  /** A rendition's bytes, or undefined when no picture has that id. */
  get(imageId: string, rendition: ImageRendition): Promise<Buffer | undefined>;
  /** Forgets a picture kept for an event that was then refused (it names nothing). */
  delete(imageId: string): Promise<void>;
  close(): Promise<void>;
}
