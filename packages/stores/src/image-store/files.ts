// The embedded image store: each rendition a file under the data directory (images/ab/<id>-<size>.webp,
// in directories by the id's first two characters so that none holds too many). A file is written
// beside its place, flushed, renamed into it and its directory flushed, so that a picture is whole
// or absent after a crash, never half written, and kept once put answers.
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { IMAGE_RENDITIONS, type ImageRendition } from '@eventide/kernel/entities/product-image.ts';
import type { ImageStore } from './port.ts';

/** Ids are the store's own (hex), checked again here: a path is never made of anything else. */
const ID = /^[0-9a-f]{32}$/;

export function openFileImageStore(directory: string): ImageStore {
  const folderOf = (imageId: string) => {
    if (!ID.test(imageId)) throw new TypeError(`${JSON.stringify(imageId)} is not an image id`);
    return join(directory, imageId.slice(0, 2));
  };
  const pathOf = (imageId: string, rendition: ImageRendition) => join(folderOf(imageId), `${imageId}-${rendition}.webp`);

  async function flushed(path: string, flags: string, write?: (file: import('node:fs/promises').FileHandle) => Promise<void>) {
    const file = await open(path, flags, 0o600);
    try {
      await write?.(file);
      await file.sync();
    } finally {
      await file.close();
    }
  }

  return {
    async put(imageId, renditions) {
      const folder = folderOf(imageId);
      // As every file under the data directory: the service's user's alone (hostile/data-files.e2e.test.ts).
      await mkdir(folder, { recursive: true, mode: 0o700 });
      for (const rendition of Object.keys(IMAGE_RENDITIONS) as ImageRendition[]) {
        const path = pathOf(imageId, rendition);
        const beside = `${path}.${process.pid}.part`;
        await flushed(beside, 'w', async (file) => {
          await file.writeFile(renditions[rendition]);
        });
        await rename(beside, path);
      }
      // The renames are kept once the directory is.
      await flushed(folder, 'r');
    },
    async get(imageId, rendition) {
      if (!ID.test(imageId)) return undefined;
      try {
        return await readFile(pathOf(imageId, rendition));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(imageId) {
      for (const rendition of Object.keys(IMAGE_RENDITIONS) as ImageRendition[]) await rm(pathOf(imageId, rendition), { force: true });
    },
    async close() {},
  };
}
