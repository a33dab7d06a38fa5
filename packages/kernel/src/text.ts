// Text fields as people mean them: trimmed, counted in characters (Unicode code points, so an
// emoji is one, not two), and free of control characters, which no name needs and which turn
// into forged log lines and broken displays. Multi-line text keeps line breaks and tabs.
import { z } from 'zod';
import { characters } from './characters.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

export interface TextRules {
  min?: number;
  max: number;
  /** Line breaks and tabs allowed (descriptions); default: one line (names). */
  multiline?: boolean;
}

export function text({ min = 0, max, multiline = false }: TextRules) {
  return z
    .string()
    .trim()
    .refine((value) => characters(value) >= min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .refine((value) => characters(value) <= max, `must be at most ${max} characters`)
    .refine(
      (value) => !(multiline ? CONTROL_BUT_LINES : CONTROL).test(value),
      multiline
        ? 'must not contain control characters other than line breaks and tabs'
        : 'must not contain control characters or line breaks',
    );
}
