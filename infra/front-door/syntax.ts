// What the front door's configuration is written with (nginx.ts, problems.ts): quoting, and the
// variables and patterns that more than one part of it uses.

/** A parameter's value where the door writes the path into a JSON answer: nothing that needs escaping. */
export const JSON_SAFE_SEGMENT = '[A-Za-z0-9._~:@!*+,;=-]+';
/** The correlation id the door passes on, logs and answers (nginx.ts, correlationMap). */
export const CORRELATION = '$eventide_correlation_id';

export function quoted(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
