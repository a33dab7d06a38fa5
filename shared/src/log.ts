// Structured JSON logs (pino). Secrets are redacted by path as a second line of defence; the
// first is never handing them to the logger.
import { pino, type Logger } from 'pino';

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

export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      redact: { paths: REDACTED, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // sonic-boom on fd 1, asynchronous: a log line never waits on the terminal or pipe reader.
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
