// The "Load and soak" section of docs/benchmarks.md: written by `npm run load -- --record`, and
// kept by `npm run bench` when it rewrites the rest of the file.
import type { LoadReport } from './load.ts';

export const LOAD_HEADING = '## Load and soak';

export function loadSection(report: LoadReport, context: string): string {
  const { options: o } = report;
  const ms = (v: number) => v.toFixed(1);
  return [
    LOAD_HEADING,
    '',
    `\`npm run load\` (infra/load): ${o.rate} HTTP requests a second for ${o.seconds} s against the process \`npm start\` runs, on a`,
    'fixed schedule (a request is sent when due, whatever the ones before it are doing, and its latency counts from then):',
    '70% reads (newest products, a product, a page of the catalogue, the signed-in user), 20% writes (orders, new',
    `products, product changes) and 10% searches, from ${Math.max(2, Math.ceil(o.editors / 2))} signed-in users and an admin; and ${o.editors} editors on`,
    `ShareDB, two per user on that user's document, each typing ${o.opsPerEditor} characters a second. Rate limits are raised: this`,
    'measures the service, not its limits. Afterwards every acknowledged write is read back once the read models reach',
    `its position, at the revision it made or a later one. ${context}`,
    '',
    '| route | requests | p50 (ms) | p99 (ms) | errors |',
    '|---|---:|---:|---:|---|',
    ...report.routes
      .sort((a, b) => a.route.localeCompare(b.route))
      .map(
        (r) =>
          `| ${r.route} | ${r.count.toLocaleString('en')} | ${ms(r.p50)} | ${ms(r.p99)} | ${
            Object.entries(r.errors)
              .map(([status, n]) => `${n} × ${status === '0' ? 'no answer' : status}`)
              .join(', ') || 'none'
          } |`,
      ),
    '',
    `**5xx: ${report.serverErrors}. Acknowledged writes read back: ${report.writes.verified.toLocaleString('en')} of ${report.writes.acknowledged.toLocaleString('en')}${
      report.writes.lost.length > 0 ? ` (lost: ${report.writes.lost.slice(0, 5).join(', ')})` : ''
    }. Editor operations acknowledged: ${report.editorOps.acknowledged.toLocaleString('en')} of ${report.editorOps.submitted.toLocaleString('en')} (${report.editorOps.failed} refused).**`,
    '',
    `Resident memory of the server, every ${o.sampleEveryMs / 1000} s (MiB): ${report.rss.map((s) => `${s.second} s ${s.mib.toFixed(0)}`).join(', ')}.`,
    `After warm-up (the first minute, or the first fifth of a shorter run), a least-squares fit changes by ${report.rssSlopeMibPerMinute.toFixed(2)} MiB a minute: ${
      report.rssFlat
        ? 'flat (the fitted growth over the window is under 5% of the mean)'
        : 'GROWING (the fitted growth over the window is 5% of the mean or more)'
    }.`,
    '',
  ].join('\n');
}

/** The document with its load section replaced by `section` (or added at the end). */
export function withLoadSection(document: string, section: string): string {
  const start = document.indexOf(LOAD_HEADING);
  if (start === -1) return `${document.trimEnd()}\n\n${section.trimEnd()}\n`;
  const next = document.indexOf('\n## ', start + LOAD_HEADING.length);
  return `${document.slice(0, start)}${section.trimEnd()}\n${next === -1 ? '' : `\n${document.slice(next + 1)}`}`;
}
