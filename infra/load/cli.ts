// `npm run load [-- --seconds N --rate R --editors E --record]`: runs the load (load.ts), prints
// the report, and with --record writes it into docs/benchmarks.md as its "Load and soak" section.
// Exits 1 when the run saw a 5xx, lost an acknowledged write, or memory grew.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_LOAD, runLoad } from './load.ts';
import { loadSection, withLoadSection } from './report.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    rate: { type: 'string' },
    editors: { type: 'string' },
    record: { type: 'boolean', default: false },
  },
});
const number = (value: string | undefined, fallback: number, name: string) => {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    console.error(`--${name} must be a positive number, not ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return parsed;
};
const options = {
  ...DEFAULT_LOAD,
  seconds: number(values.seconds, DEFAULT_LOAD.seconds, 'seconds'),
  rate: number(values.rate, DEFAULT_LOAD.rate, 'rate'),
  editors: Math.round(number(values.editors, DEFAULT_LOAD.editors, 'editors')),
};

const started = loadavg()[0]!.toFixed(2);
const report = await runLoad(options);
const context = `Run: ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; load average (1 min) ${started} at the start and ${loadavg()[0]!.toFixed(2)} at the end.`;
const section = loadSection(report, context);
console.log(`\n${section}`);
if (values.record) {
  const path = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
  writeFileSync(path, withLoadSection(readFileSync(path, 'utf8'), section));
  console.log(`recorded in ${path}`);
}
const failed = report.serverErrors > 0 || report.writes.lost.length > 0 || !report.rssFlat;
process.exit(failed ? 1 : 0);
