// Personal values sealed with their subject's key (AES-256-GCM, node:crypto): what events hold in
// place of a name or an address. The subject and the field are bound in as associated data, so a
// sealed value moved to another person or another field does not open. Without the key (the
// subject was forgotten) nothing opens it, which is the point.
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from 'node:crypto';
import { pooledRandomBytes } from '@eventide/kernel/random-pool.ts';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import type { KeyState } from '../key-store/port.ts';
import type { Sealed } from '@eventide/kernel/events/personal-fields.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const associatedData = (subject: string, field: string) => Buffer.from(`${subject}\0${field}`);

/** `key`: a KeyObject (createSecretKey) where one key seals or opens several values: from raw bytes each cipher costs 5 times as much. */
export function seal(key: Buffer | KeyObject, subject: string, field: string, value: JsonValue): Sealed {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(subject, field));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { $sealed: { v: 1, subject, iv: iv.toString('base64url'), data: data.toString('base64url') } };
}

/** The value, or a thrown error when the key, the subject, the field or a byte is not the one it was sealed with. */
export function unseal(key: Buffer | KeyObject, sealed: Sealed, field: string): JsonValue {
  const { subject, iv, data } = sealed.$sealed;
  const bytes = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(subject, field));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as JsonValue;
}

/**
 * A key object for each subject whose key is active in a lookup's answer: one per subject, since a
 * cipher made from a key object costs a fifth of one made from the key's bytes.
 */
export function activeKeyObjects(states: ReadonlyMap<string, KeyState>): Map<string, KeyObject> {
  const keyObjects = new Map<string, KeyObject>();
  for (const [subject, state] of states) if (state.state === 'active') keyObjects.set(subject, createSecretKey(state.key));
  return keyObjects;
}
