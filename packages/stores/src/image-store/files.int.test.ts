import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageStoreContract } from './contract.ts';
import { openFileImageStore } from './files.ts';

imageStoreContract('files in the data directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-images-'));
  return {
    store: openFileImageStore(dir),
    another: async () => openFileImageStore(dir),
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
