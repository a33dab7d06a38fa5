// Which events hold personal data, where in them, and about whom: the one list that sealing on
// append, opening on read and every reader without keys follow (docs/privacy.md). A person's data
// lives in their own streams (`user-<id>`, `account-<id>`), so the stream names the subject whose
// key seals it. What a sealed value looks like is known here too, so that an event can be read
// (its sealed fields as null) by any layer; sealing and opening, with keys, are personal-data's.
import type { JsonValue } from './recorded.ts';
import { USER } from '../entities/user.ts';

/** A sealed value as it is stored: unmistakable for anything a user typed, which is a string. */
export type Sealed = {
  $sealed: {
    v: 1;
    /** Whose key seals it. */
    subject: string;
    /** base64url of the IV, then of the ciphertext with its tag. */
    iv: string;
    data: string;
  };
};

/** Streams whose events are about one person: the subject is the id after the prefix. */
export const PERSONAL_STREAMS = ['user-', 'account-'] as const;

/** The personal fields of each event type, as paths into its data. */
export const PERSONAL_FIELDS: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  // The user's personal details, as its declaration marks them: every detail, in both events that carry them.
  'user:created': USER.personal.map((name) => [name]),
  'user:updated': USER.personal.map((name) => ['changes', name]),
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
export function mapFields(
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

export function isSealed(value: unknown): value is Sealed {
  if (typeof value !== 'object' || value === null || !('$sealed' in value)) return false;
  const inner = (value as Sealed).$sealed as Partial<Sealed['$sealed']> | null;
  return (
    typeof inner === 'object' &&
    inner !== null &&
    inner.v === 1 &&
    typeof inner.subject === 'string' &&
    typeof inner.iv === 'string' &&
    typeof inner.data === 'string'
  );
}
