// Where a run's time goes: the wall time of each stage (lint and types, timed by stages.ts and
// passed in EVENTIDE_STAGE_SECONDS; then each vitest project, which run one after another) and
// the slowest files, so that the suite can be kept near ten minutes on a quiet machine as it grows.
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST = 12;

interface Span {
  start: number;
  end: number;
}

export default class TimeReport implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const now = Date.now();
    const span = this.spans.get(module.project.name);
    if (span) span.start = Math.min(span.start, now);
    else this.spans.set(module.project.name, { start: now, end: now });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name);
    if (span) span.end = Math.max(span.end, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
    const before = JSON.parse(process.env.EVENTIDE_STAGE_SECONDS ?? '{}') as Record<string, number>;
    const lines = ['', 'Where the time went (stage: wall time)'];
    for (const [stage, spent] of Object.entries(before)) lines.push(`  ${stage.padEnd(10)}${seconds(spent * 1000)}`);
    for (const [stage, span] of this.spans) {
      const files = modules.filter((m) => m.project.name === stage).length;
      // Stages of one group (unit and int) run at once: their times overlap and do not add up.
      const alongside = [...this.spans]
        .filter(([other, o]) => other !== stage && o.start < span.end && span.start < o.end)
        .map(([other]) => other);
      lines.push(
        `  ${stage.padEnd(10)}${seconds(span.end - span.start)}  (${files} files${alongside.length > 0 ? `, alongside ${alongside.join(', ')}` : ''})`,
      );
    }
    lines.push(`Slowest files (time in tests and hooks)`);
    const slowest = [...modules].sort((a, b) => b.diagnostic().duration - a.diagnostic().duration).slice(0, SLOWEST);
    for (const module of slowest)
      lines.push(`  ${seconds(module.diagnostic().duration)}  ${module.relativeModuleId}  [${module.project.name}]`);
    console.log(lines.join('\n'));
  }
}
