// `npm run bench -- --quick` itself, as a smoke test of the harness: every section runs on tiny data
// and the report is written whole, with a row for every target and every link of the targets
// table landing on a section of the page. Its figures mean nothing and none is asserted (the full
// run is `npm run bench`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorOf, HEADING } from '../bench/headings.ts';
import { wrkMissing } from '../bench/wrk.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const RUN = fileURLToPath(new URL('../bench/run.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'eventide-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const headingsOf = (document: string) => [...document.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!);

const noWrk = wrkMissing();
if (noWrk !== undefined) console.warn(`SKIPPED: the quick bench's run, as ${noWrk} (apt-get install -y wrk; .ci/run installs it)`);

describe('npm run bench -- --quick', () => {
  it.skipIf(noWrk !== undefined)(
    'runs every section and writes a report whose targets table links to its sections',
    { timeout: 900_000 },
    async () => {
      const out = join(dir, 'benchmarks.md');
      const child = spawnInGroup(process.execPath, [RUN, '--quick', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, output).toBe(0);

      const report = readFileSync(out, 'utf8');
      const headings = headingsOf(report);
      for (const heading of Object.values(HEADING)) expect(headings).toContain(heading);
      const targets = report.slice(report.indexOf('## Targets'), report.indexOf('\n## ', report.indexOf('## Targets') + 1));
      const rows = targets.split('\n').filter((line) => /^\| (?!measure |---)/.test(line));
      expect(rows.length).toBeGreaterThanOrEqual(16);
      for (const row of rows) expect(row).toMatch(/\| (yes|\*\*no\*\*: see \[[^\]]+\]\(#[^)]+\)) \|$/);
      const present = new Set(headings.map(anchorOf));
      for (const [, anchor] of targets.matchAll(/\]\(#([^)]+)\)/g)) expect(present, `#${anchor}`).toContain(anchor);
      // Every section the run went through is in its own table.
      expect(report).toContain('## How this run went');
      expect(report).not.toContain('(to be written)');
    },
  );

  it('refuses what it cannot run, and says how to run it', async () => {
    const child = spawnInGroup(process.execPath, [RUN, '--quik'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(output).toContain("Unknown option '--quik'");
    expect(output).toContain('usage: npm run bench');
  });
});
