// Opens the personal fields that an event carries sealed on the bus (docs/events.md), with the
// key store the publisher sealed them under. Three answers, each told apart so that a handler never
// mistakes one for another: opened; `forgotten` (the person's key was destroyed: the fields are null
// for good); `withheld` (this subscriber was given no keys: the fields are null here, not gone).
// Anything else (no such key in the store given, a value that does not open) is an error, so the
// event is retried and then dead-lettered rather than handled as if the person had been forgotten.
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { openFields } from '@eventide/stores/personal-data/fields.ts';
import { sealedSubjects, withSealedAsNull } from '@eventide/kernel/events/personal-fields.ts';
import { activeKeyObjects } from '@eventide/stores/personal-data/sealed.ts';

/** What the SDK needs of a key store: a read of keys, never a write. */
export type KeyLookup = Pick<KeyStore, 'lookup'>;

export interface OpenedPayload {
  data: JsonValue;
  forgotten?: true;
  withheld?: true;
}

export async function openPayload(type: string, data: JsonValue, keys: KeyLookup | undefined): Promise<OpenedPayload> {
  const subjects = [...new Set(sealedSubjects(type, data))];
  if (subjects.length === 0) return { data };
  if (!keys) return { data: withSealedAsNull(type, data), withheld: true };
  const states = await keys.lookup(subjects);
  let anyForgotten = false;
  for (const subject of subjects) {
    const state = states.get(subject)?.state;
    if (state === 'forgotten') anyForgotten = true;
    else if (state !== 'active')
      throw new Error(`no key for ${subject} in the key store given: give the subscriber the store the publisher seals with`);
  }
  const keyObjects = activeKeyObjects(states);
  const opened = openFields(type, data, (subject) => keyObjects.get(subject));
  if (!opened.erased) return { data: opened.data };
  if (!anyForgotten) throw new Error('a sealed field did not open with its key: altered, or sealed under another key');
  return { data: opened.data, forgotten: true };
}
