// Whether an event store may hold claims under the names stores gave them before keyed hashes
// (claims.ts): while it may, every claim reads that name too, a read of a stream that is almost
// always absent, on every sign-up. The key store keeps a note that says it may not, for one event
// store:
// - found empty: nothing this version writes is named so, so nothing recorded since is;
// - after seal-existing has given every claim that still binds a keyed name.
// The note names the store it vouches for (when it was found empty; or its first event), so that a
// key store beside another event store (one restored from a backup older than the note) vouches
// for nothing there. Asked once a process; every doubt answers that such claims may exist.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';

export const NO_PLAIN_HASH_CLAIMS_NOTE = 'no-plain-hash-claims';

export type ClaimNotes = Pick<KeyStore, 'note' | 'setNote'>;

/** What a note vouches for: a store found empty at that time, or the store whose first event this is. */
export type NoPlainHashClaims = { emptyAt: string } | { firstEventId: string };

type FirstEvent = { id: string; time: string } | undefined;

function vouchesFor(note: string, first: FirstEvent): boolean {
  if (first === undefined) return true;
  let vouch: unknown;
  try {
    vouch = JSON.parse(note);
  } catch {
    return false;
  }
  if (typeof vouch !== 'object' || vouch === null) return false;
  if ('firstEventId' in vouch) return vouch.firstEventId === first.id;
  // Recorded at or after the moment the store was found empty: by this version, keyed.
  if ('emptyAt' in vouch && typeof vouch.emptyAt === 'string') return Date.parse(first.time) >= Date.parse(vouch.emptyAt);
  return false;
}

async function decide(store: EventStore, notes: ClaimNotes, now: () => Date): Promise<boolean> {
  // Taken before the log is read, so that whatever it finds empty was empty at this time.
  const checkedAt = now().toISOString();
  const [first] = await store.readAll({ limit: 1 });
  const note = await notes.note(NO_PLAIN_HASH_CLAIMS_NOTE);
  if (note !== undefined) return !vouchesFor(note, first);
  if (first !== undefined) return true;
  await notes.setNote(NO_PLAIN_HASH_CLAIMS_NOTE, JSON.stringify({ emptyAt: checkedAt } satisfies NoPlainHashClaims));
  return false;
}

const verdicts = new WeakMap<ClaimNotes, WeakMap<EventStore, Promise<boolean>>>();

/**
 * Whether `store` may hold claims under plain-hash names: decided on the first ask for this pair
 * of stores, and kept (nothing this version writes can make the answer change to yes). A store
 * found empty is noted as holding none. A failed ask is asked again next time.
 */
export function plainHashClaimsMayExist(store: EventStore, notes: ClaimNotes, now: () => Date): Promise<boolean> {
  const byStore = verdicts.get(notes) ?? new WeakMap<EventStore, Promise<boolean>>();
  verdicts.set(notes, byStore);
  let verdict = byStore.get(store);
  if (!verdict) {
    verdict = decide(store, notes, now);
    byStore.set(store, verdict);
    verdict.catch(() => byStore.delete(store));
  }
  return verdict;
}
