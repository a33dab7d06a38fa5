// Each test file gets a temporary folder of its own as TMPDIR, inside the run's (run-bounds.ts):
// what the file and the processes it starts put in os.tmpdir() is removed when the file ends,
// however it ended. A process group the file started and left running fails the file, by name,
// once it is killed (@eventide/testing/processes.ts).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { killLeftoverGroups } from '@eventide/testing/processes.ts';
import { RUN_TMP } from './run-bounds.ts';

const outer = process.env.TMPDIR;
// Short: a Unix socket's path (nginx's, Redis's) must fit in 107 bytes under it.
const name = basename(expect.getState().testPath ?? 'file')
  .replace(/\.test\.ts$/, '')
  .replace(/[^a-z0-9]+/gi, '-')
  .slice(0, 16);
const folder = mkdtempSync(join(process.env[RUN_TMP] ?? tmpdir(), `${name}-`));
// Others may pass through, not look: nginx's workers (nobody, when the tests run as root) reach
// the front door's socket in a folder below.
chmodSync(folder, 0o711);

// Before the file is imported: what it makes as it loads goes there too.
process.env.TMPDIR = folder;

afterAll(async () => {
  const left = await killLeftoverGroups();
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  rmSync(folder, { recursive: true, force: true });
  if (left.length > 0) throw new Error(`processes this file started were still running when it ended (now killed):\n${left.join('\n')}`);
});
