import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { withSourcePositions } from '@eventide/kernel/stack-sources.ts';
import { BUNDLE_EXTENSION, BUNDLE_OUTPUT } from '../src/start/bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-stack-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A trace made by `source` run from a bundle built as the start bundle is (infra/src/start/bundle.ts), with its maps beside it or not. */
async function traceFromBundle(source: string, maps: boolean): Promise<{ file: string; stack: string }> {
  const file = join(dir, 'src', 'thrower.ts');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(file, source);
  const out = join(dir, 'node_modules/.cache/eventide-start/b1', maps ? 'with' : 'without');
  await build({
    ...BUNDLE_OUTPUT,
    entryPoints: [file],
    outdir: out,
    logLevel: 'error',
    ...(!maps && { sourcemap: false }),
  });
  const run = spawnSync(process.execPath, [join(out, `thrower${BUNDLE_EXTENSION}`)], { encoding: 'utf8' });
  return { file, stack: run.stdout };
}

const SOURCE = [
  'type Place = { where: string };',
  'function deep(place: Place): string {',
  "  return new Error('made in ' + place.where).stack ?? '';",
  '}',
  "console.log(deep({ where: 'the fixture' }));",
].join('\n');

describe('stack traces from the start bundle', () => {
  it('name the source file, line and column of each bundled frame', async () => {
    const { file, stack } = await traceFromBundle(SOURCE, true);
    expect(stack).toContain(`/node_modules/.cache/eventide-start/b1/with/thrower${BUNDLE_EXTENSION}:`);
    const mapped = withSourcePositions(stack);
    expect(mapped).toContain('Error: made in the fixture');
    // A module's frames are file URLs; the mapped ones stay URLs, of the source.
    expect(mapped).toMatch(new RegExp(`at deep \\((file://)?${file.replaceAll('/', '\\/')}:3:10\\)`));
    expect(mapped).toContain(`${file}:5:`);
    expect(mapped).not.toContain(`thrower${BUNDLE_EXTENSION}`);
  });

  it('stay as they are without maps, or outside the bundle', async () => {
    const { stack } = await traceFromBundle(SOURCE, false);
    expect(withSourcePositions(stack)).toBe(stack);
    const elsewhere = 'Error: x\n    at f (file:///srv/app/dist/index.js:10:5)\n    at node:internal/main:1:1';
    expect(withSourcePositions(elsewhere)).toBe(elsewhere);
  });
});
