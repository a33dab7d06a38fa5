// Reads one sample out of Prometheus's text exposition format, for tests that scrape /metrics.
// (A parser library would add a dependency for one function of ten lines.)

/** The value of `name` with every label in `labels` (others may be present), summed over the series that match; 0 when none does. */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) sum += Number(match[3]);
  }
  return sum;
}

/** The names of the metric families the text declares (its # TYPE lines). */
export function familiesOf(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
}
