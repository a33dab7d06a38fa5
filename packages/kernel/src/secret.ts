// A secret every process of one deployment shares: from the environment when given, else made
// once and kept (readable by the owner only) under the data directory.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function loadOrCreateSecret(fromEnv: string | undefined, path: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf-8');
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    // 'wx': if another process made it first, use theirs.
    writeFileSync(path, randomBytes(32), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path);
}
