// docs/operations.md#configuration is written by hand, so this keeps it to what the process reads
// (packages/kernel/src/config.ts): every variable is in the table once, every variable the table
// names is read, and a default the table states as a value is the one the process takes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from '@eventide/kernel/config.ts';

const DOCUMENT = fileURLToPath(new URL('../../../docs/operations.md', import.meta.url));

interface Row {
  variables: string[];
  /** The defaults, one per variable, when the row states each as a value (`10`, `unset`). */
  defaults: string[] | undefined;
}

function configurationTable(): Row[] {
  const text = readFileSync(DOCUMENT, 'utf8');
  const section = text.split('\n## Configuration\n')[1]?.split('\n## ')[0];
  if (!section) throw new Error('docs/operations.md has no "## Configuration" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [variables = '', defaults = ''] = line.split(' | ');
      const names = [...variables.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!);
      const values = defaults.split(', ').map((value) => value.trim());
      const stated = values.length === names.length && values.every((value) => /^`[^`]*`$|^unset$/.test(value));
      return { variables: names, defaults: stated ? values.map((value) => value.replaceAll('`', '')) : undefined };
    });
}

/** A default as the table writes it: a number plainly, a list comma-separated, nothing as `unset`. */
function written(value: unknown): string {
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return value.length === 0 ? 'unset' : value.join(',');
  return String(value);
}

describe('the configuration table of docs/operations.md', () => {
  const rows = configurationTable();
  const documented = rows.flatMap((row) => row.variables);

  it('names every variable the process reads, once', () => {
    expect(CONFIG_VARIABLES.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name, at) => documented.indexOf(name) !== at)).toEqual([]);
  });

  it('names only variables the process reads', () => {
    const read = new Set<string>(CONFIG_VARIABLES);
    expect(documented.filter((name) => !read.has(name))).toEqual([]);
  });

  it('states the defaults the process takes', () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    const wrong = rows.flatMap((row) =>
      (row.defaults ?? [])
        .map((stated, at) => ({ variable: row.variables[at]!, stated, taken: written(defaults[row.variables[at]!]) }))
        .filter(({ stated, taken }) => stated !== taken),
    );
    expect(wrong).toEqual([]);
    // Most rows state their defaults as values: the check above is not vacuous.
    expect(rows.filter((row) => row.defaults).length).toBeGreaterThan(rows.length / 2);
  });
});
