// Identifiers: random UUIDs for new entities and events, name-based ones (v5) where a retry
// must land on the same id (idempotent commands).
import { v5 as uuidv5 } from 'uuid';
import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Our namespace for v5 ids; any fixed UUID works, this one is ours alone. */
const NAMESPACE = '7d6c1f1e-4b53-4a4e-9a3c-2f0c8a9b6e11';

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function newId(): string {
  return randomUUID();
}

/** The same parts always give the same UUID. */
export function derivedId(...parts: string[]): string {
  return uuidv5(JSON.stringify(parts), NAMESPACE);
}
