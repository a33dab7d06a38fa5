// Which events hold personal data, where in them, and about whom: the one list that sealing on
// append and opening on read both follow (docs/privacy.md). A person's data lives in their own
// streams (`user-<id>`, `account-<id>`), so the stream names the subject whose key seals it.
import type { KeyObject } from 'node:crypto';
import type { JsonValue } from '../event-store/port.ts';
import { isSealed, seal, unseal } from './sealed.ts';

/** Streams whose events are about one person: the subject is the id after the prefix. */
export const PERSONAL_STREAMS = ['user-', 'account-'] as const;

/** The personal fields of each event type, as paths into its data. */
export const PERSONAL_FIELDS: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  'user:created': [['name'], ['email']],
  'user:updated': [
    ['changes', 'name'],
    ['changes', 'email'],
  ],
  'account:password-set': [['hash']],
  'account:identity-linked': [['subject']],
  'account:identity-unlinked': [['subject']],
  'account:email-verified': [['email']],
};

/** Whose key seals the personal fields of events on this stream; undefined for streams about no one. */
export function subjectOf(streamId: string): string | undefined {
  const prefix = PERSONAL_STREAMS.find((p) => streamId.startsWith(p));
  return prefix ? streamId.slice(prefix.length) : undefined;
}

type JsonObject = { [key: string]: JsonValue };
const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values at `paths` in `data`, where present. */
function valuesAt(data: JsonValue, paths: ReadonlyArray<readonly string[]>): JsonValue[] {
  const values: JsonValue[] = [];
  for (const path of paths) {
    let value: JsonValue | undefined = data;
    for (const step of path) value = isObject(value) ? value[step] : undefined;
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** A copy of `data` with each present field of `paths` replaced by what `change` makes of it; only the objects on those paths are copied. */
function mapFields(
  data: JsonValue,
  paths: ReadonlyArray<readonly string[]>,
  change: (value: JsonValue, field: string) => JsonValue,
): JsonValue {
  if (!isObject(data)) return data;
  const copy: JsonObject = { ...data };
  for (const path of paths) {
    let parent: JsonObject | undefined = copy;
    for (const step of path.slice(0, -1)) {
      const child: JsonValue | undefined = parent[step];
      if (!isObject(child)) {
        parent = undefined;
        break;
      }
      const copied: JsonObject = { ...child };
      parent[step] = copied;
      parent = copied;
    }
    const last = path[path.length - 1]!;
    if (parent && parent[last] !== undefined) parent[last] = change(parent[last]!, path.join('.'));
  }
  return copy;
}

export const hasPersonalFields = (type: string) => PERSONAL_FIELDS[type] !== undefined;

/** The event's data with its personal fields sealed under the subject's key. */
export function sealFields(type: string, data: JsonValue, subject: string, key: KeyObject): JsonValue {
  const paths = PERSONAL_FIELDS[type];
  if (!paths) return data;
  return mapFields(data, paths, (value, field) => (isSealed(value) ? value : seal(key, subject, field, value)));
}

/** The subjects whose keys open the sealed fields of this data. */
export function sealedSubjects(type: string, data: JsonValue): string[] {
  const paths = PERSONAL_FIELDS[type];
  if (!paths) return [];
  return valuesAt(data, paths).flatMap((value) => (isSealed(value) ? [value.$sealed.subject] : []));
}

/** Whether any personal field of the data holds a value in clear (written before sealing). */
export function hasClearFields(type: string, data: JsonValue): boolean {
  const paths = PERSONAL_FIELDS[type];
  return paths !== undefined && valuesAt(data, paths).some((value) => value !== null && !isSealed(value));
}

/** The data with each sealed field as null: what a reader without keys may see of it. */
export function withSealedAsNull(type: string, data: JsonValue): JsonValue {
  const paths = PERSONAL_FIELDS[type];
  if (!paths || !valuesAt(data, paths).some(isSealed)) return data;
  return mapFields(data, paths, (value) => (isSealed(value) ? null : value));
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
