// `npm run load` itself, run briefly: every kind of request is sent and answered, nothing comes back
// 5xx, every acknowledged write is read back, every editor's operation is acknowledged, and the report
// and its section of docs/benchmarks.md say so. (The five-minute run is `npm run load`; no time is
// asserted here.)
import { describe, expect, it } from 'vitest';
import { runLoad } from '../load/load.ts';
import { loadSection, withLoadSection } from '../load/report.ts';

describe('npm run load', () => {
  it('drives the mix and the editors, and finds no 5xx, no lost write and no refused edit', { timeout: 120_000 }, async () => {
    const report = await runLoad({ seconds: 4, rate: 50, editors: 4, opsPerEditor: 2, sampleEveryMs: 1_000 }, () => undefined);
    expect(report.routes.map((r) => r.route).sort()).toEqual(
      [
        'GET /api/products',
        'GET /products/:id',
        'GET /products?page',
        'GET /search',
        'GET /users/:id',
        'PATCH /products/:id',
        'POST /orders',
        'POST /products',
      ].sort(),
    );
    expect(report.serverErrors).toBe(0);
    expect(report.routes.flatMap((r) => Object.keys(r.errors))).toEqual([]);
    expect(report.writes.acknowledged).toBeGreaterThan(0);
    expect(report.writes).toMatchObject({ verified: report.writes.acknowledged, lost: [] });
    expect(report.editorOps.submitted).toBeGreaterThan(0);
    expect(report.editorOps).toMatchObject({ acknowledged: report.editorOps.submitted, failed: 0 });
    expect(report.rss.length).toBeGreaterThanOrEqual(2);

    const section = loadSection(report, 'Run: test.');
    expect(section).toContain('**5xx: 0.');
    const document = '# Benchmarks\n\n## Other\n\ntext\n\n## Load and soak\n\nold run\n\n## Reading these\n\nnotes\n';
    const updated = withLoadSection(document, section);
    expect(updated).not.toContain('old run');
    expect(updated.indexOf('## Other')).toBeLessThan(updated.indexOf('## Load and soak'));
    expect(updated).toContain('## Reading these\n\nnotes');
  });
});
