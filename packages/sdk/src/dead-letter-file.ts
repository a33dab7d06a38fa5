// Dead letters where there is no Kafka (a subscriber over HTTP, or on the in-process bus): a file
// of JSON lines the subscriber appends each letter to, and its operator's `eventide-dead-letters
// --file` command reads, asks to retry and skips. The file is only ever appended to, by either,
// so it is the record of what happened: a letter, a retry asked (by whom, when), a retry done
// (and how it went), a skip (why). The subscriber does what was asked within a couple of seconds,
// or when it next starts.
import { randomUUID } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import type { DeadLetter } from '@eventide/stores/event-bus/port.ts';

type Line =
  | ({ kind: 'letter'; id: string; time: string } & DeadLetter)
  | { kind: 'retry'; id: string; by: string; at: string }
  | { kind: 'skip'; id: string; by: string; at: string; reason: string }
  | { kind: 'retried'; id: string; at: string; outcome: string };

export interface FileDeadLetter extends DeadLetter {
  id: string;
  time: string;
  /** What became of it: asked to retry and not yet done, retried (with how it went), or skipped. */
  resolution?:
    | { action: 'retry asked'; by: string; at: string }
    | { action: 'retried'; by: string; at: string; outcome: string }
    | { action: 'skipped'; by: string; at: string; reason: string };
}

export interface FileDeadLetters {
  readonly path: string;
  add(letter: DeadLetter): Promise<void>;
  /** The letters not yet retried or skipped (all with `resolved`), oldest first. */
  list(options?: { resolved?: boolean }): Promise<FileDeadLetter[]>;
  /** Asks the subscriber to handle these open letters again (by id, or all); returns them. */
  retry(which: readonly string[] | 'all', by: string): Promise<FileDeadLetter[]>;
  skip(which: readonly string[], reason: string, by: string): Promise<FileDeadLetter[]>;
  /** The letters a retry was asked of and not yet done: the subscriber's to do. */
  retriesAsked(): Promise<FileDeadLetter[]>;
  /** The subscriber did one: how it went (handled, or dead-lettered again as a letter of its own). */
  retried(id: string, outcome: string): Promise<void>;
}

export function fileDeadLetters(path: string): FileDeadLetters {
  const write = (line: Line) => appendFile(path, `${JSON.stringify(line)}\n`, { mode: 0o600 });

  async function letters(): Promise<FileDeadLetter[]> {
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const byId = new Map<string, FileDeadLetter>();
    // A line cut short (a writer killed mid-line) is the last and is left out.
    const lines = text.split('\n').flatMap((raw) => {
      try {
        return raw ? [JSON.parse(raw) as Line] : [];
      } catch {
        return [];
      }
    });
    for (const line of lines) {
      if (line.kind === 'letter') {
        const { kind: _, ...letter } = line;
        byId.set(line.id, letter);
        continue;
      }
      const letter = byId.get(line.id);
      if (!letter) continue;
      if (line.kind === 'retry') letter.resolution = { action: 'retry asked', by: line.by, at: line.at };
      else if (line.kind === 'skip') letter.resolution = { action: 'skipped', by: line.by, at: line.at, reason: line.reason };
      else {
        const asked = letter.resolution?.action === 'retry asked' ? letter.resolution.by : 'the subscriber';
        letter.resolution = { action: 'retried', by: asked, at: line.at, outcome: line.outcome };
      }
    }
    return [...byId.values()];
  }

  const open = (letter: FileDeadLetter) => !letter.resolution || letter.resolution.action === 'retry asked';

  async function named(which: readonly string[] | 'all'): Promise<FileDeadLetter[]> {
    const found = (await letters()).filter(open);
    if (which === 'all') return found;
    const byId = new Map(found.map((letter) => [letter.id, letter]));
    const missing = which.filter((id) => !byId.has(id));
    if (missing.length > 0) throw new Error(`no open dead letter in ${path} is ${missing.join(', ')}`);
    return which.map((id) => byId.get(id)!);
  }

  return {
    path,
    add: (letter) => write({ kind: 'letter', id: randomUUID(), time: new Date().toISOString(), ...letter }),
    list: async ({ resolved = false } = {}) => (await letters()).filter((letter) => resolved || !letter.resolution),
    async retry(which, by) {
      const asked = (await named(which)).filter((letter) => !letter.resolution);
      for (const letter of asked) await write({ kind: 'retry', id: letter.id, by, at: new Date().toISOString() });
      return asked;
    },
    async skip(which, reason, by) {
      const skipped = await named(which);
      for (const letter of skipped) await write({ kind: 'skip', id: letter.id, by, at: new Date().toISOString(), reason });
      return skipped;
    },
    retriesAsked: async () => (await letters()).filter((letter) => letter.resolution?.action === 'retry asked'),
    retried: (id, outcome) => write({ kind: 'retried', id, at: new Date().toISOString(), outcome }),
  };
}
