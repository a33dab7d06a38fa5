// Structured JSON logs (pino). Secrets are redacted by path as a second line of defence; the
// first is never handing them to the logger.
import { pino, type Logger } from 'pino';
import { withSourcePositions } from './stack-sources.ts';

export type { Logger };

const REDACTED = [
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

/** Info lines wait until this much text has gathered, or FLUSH_AFTER_MS have passed, and leave together. */
const BATCH_CHARS = 4096;
/** The longest an info line waits to be written. */
const FLUSH_AFTER_MS = 200;
/** From this level on, a line is written at once, with whatever waits before it. */
const AT_ONCE_FROM = pino.levels.values.warn!;

interface Stdout {
  write(line: string): void;
  /** Hands what waits to sonic-boom; `done` (pino's flush callback) runs once it has. */
  flush(done?: () => void): void;
}
let stdout: Stdout | undefined;

/**
 * Standard output, shared by every logger of the process, written by sonic-boom off the event
 * loop and in batches: a write per line cost each request about 30 µs (measured inside a search: the
 * hand-over of each write to libuv's threads), more than making the line. Lines keep their order.
 * Whatever waits is written on exit, even after a crash; only a SIGKILL can lose the info lines of
 * the last FLUSH_AFTER_MS.
 */
function batchedStdout(): Stdout {
  if (stdout) return stdout;
  const boom = pino.destination({ dest: 1, sync: false });
  let batch = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = (done?: () => void) => {
    clearTimeout(timer);
    timer = undefined;
    if (batch !== '') boom.write(batch);
    batch = '';
    done?.();
  };
  process.on('beforeExit', () => flush());
  // No event loop left: what the loop has not written yet is written here and now.
  process.on('exit', () => {
    flush();
    boom.flushSync();
  });
  stdout = {
    write(line) {
      batch += line;
      if (batch.length >= BATCH_CHARS) flush();
      // Not pushed back by later lines: the first line of a batch waits FLUSH_AFTER_MS at most.
      else timer ??= setTimeout(flush, FLUSH_AFTER_MS).unref();
    },
    flush,
  };
  return stdout;
}

export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const out = options.destination ? undefined : batchedStdout();
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      redact: { paths: REDACTED, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: {
        err(error: Error) {
          const serialized = pino.stdSerializers.err(error);
          if (typeof serialized?.stack === 'string') serialized.stack = withSourcePositions(serialized.stack);
          return serialized;
        },
      },
      formatters: { level: (label) => ({ level: label }) },
      ...(out && {
        hooks: {
          logMethod(args, write, level) {
            write.apply(this, args);
            if (level >= AT_ONCE_FROM) out.flush();
          },
        },
      }),
    },
    // Asynchronous: a log line never waits on the terminal or pipe reader.
    options.destination ?? out!,
  );
}
