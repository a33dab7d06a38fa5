// Sealing and opening the personal fields of an event with their subject's key (docs/privacy.md):
// the fields are those the catalogue names (events/personal-fields.ts), the cipher is sealed.ts's.
import type { KeyObject } from 'node:crypto';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import { isSealed, mapFields, PERSONAL_FIELDS } from '@eventide/kernel/events/personal-fields.ts';
import { seal, unseal } from './sealed.ts';

/** The event's data with its personal fields sealed under the subject's key. */
export function sealFields(type: string, data: JsonValue, subject: string, key: KeyObject): JsonValue {
  const paths = PERSONAL_FIELDS[type];
  if (!paths) return data;
  return mapFields(data, paths, (value, field) => (isSealed(value) ? value : seal(key, subject, field, value)));
}

/**
 * The data with its sealed fields opened by `keyOf` (the subject's key, or undefined when it is
 * gone), and whether any could not be: those read as null, never as ciphertext or an error.
 */
export function openFields(
  type: string,
  data: JsonValue,
  keyOf: (subject: string) => KeyObject | undefined,
): { data: JsonValue; erased: boolean } {
  const paths = PERSONAL_FIELDS[type];
  if (!paths) return { data, erased: false };
  let erased = false;
  const opened = mapFields(data, paths, (value, field) => {
    if (!isSealed(value)) return value;
    const key = keyOf(value.$sealed.subject);
    if (key) {
      try {
        return unseal(key, value, field);
      } catch {
        // Altered, or sealed under another key: unreadable is what it is.
      }
    }
    erased = true;
    return null;
  });
  return { data: opened, erased };
}
