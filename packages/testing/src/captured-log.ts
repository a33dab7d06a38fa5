// A logger whose lines a test can read back: to follow an id through them, or to check that a
// secret or a personal field never reached them.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@eventide/kernel/log.ts';

export interface CapturedLog {
  log: Logger;
  /** Each line as pino wrote it, parsed. */
  lines: Array<Record<string, unknown>>;
  /** Everything written, as written. */
  text(): string;
}

export function capturedLog(level = 'trace'): CapturedLog {
  const chunks: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      const written = String(chunk);
      chunks.push(written);
      for (const line of written.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger({ level, destination }), lines, text: () => chunks.join('') };
}
