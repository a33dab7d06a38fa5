// Uniqueness across streams, enforced by the event store: each key (a normalised email, a
// provider's subject) has a claim stream named by a keyed hash of it (the key store's blind index),
// so the key is not in a stream name, and a guess of it cannot be checked against the names
// without the key store's secret. Stores written before that named them by a plain SHA-256: those
// names are still read where the store may hold them (a claim there still binds; a store that
// cannot is known from a note in the key store, plain-hash-claims.ts), never written. Every claim
// is appended at the revision it was read at, or on a first try as its stream's first without
// reading it (plan), so of two racing claims the store accepts one and the other reads again.
//
// Claims are never released. Whether the last claim still binds is derived from its holder:
// - once the holder's stream has an event after the claim, the command that made the claim
//   has either recorded its event or can no longer (its append expects the revision it read
//   before claiming): the claim binds while the holder still holds the key;
// - before that, the claim is in flight and binds for a grace period; a claim whose command
//   died in between frees itself when the period ends.
// So giving a key up (a new address, a deleted user, an unlinked provider) frees it with no
// second write that could race the first. A claim made with `plan` and written by appendInOrder
// with its holder's event is never in flight on the embedded store, which commits both at once.
import { createHash } from 'node:crypto';
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import { WrongExpectedRevisionError, type EventStore, type StreamAppend } from '@eventide/stores/event-store/port.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { Refusal } from '@eventide/kernel/models/refusal.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { derivedId } from '@eventide/kernel/ids.ts';
import { loadState, type Foldable, type LoadedState } from '@eventide/stores/event-store/load-state.ts';
import { plainHashClaimsMayExist, type ClaimNotes } from './plain-hash-claims.ts';

/** Long enough for a request in flight to finish its second append. */
export const CLAIM_GRACE_MS = 60_000;
/** How often a claim is planned again after another claim on its key came first. */
export const CLAIM_ATTEMPTS = 5;

export interface ClaimRules<Holder> {
  /** Prefix of the claim streams, and of the private event type `<kind>:claimed`. */
  kind: string;
  normalize(key: string): string;
  /** The stream whose state says whether its owner holds a key, and how that state is folded. */
  holderStream(holderId: string): string;
  holder: Foldable<Holder>;
  holds(holder: Holder, key: string): boolean;
  conflict(): Refusal;
}

export interface Claims {
  /** Claims the key for the holder, or throws the rules' conflict when it binds another. */
  claim(key: string, holderId: string, commandId: string, metadata: EventMetadata): Promise<void>;
  /**
   * The append that claims the key for the holder, for a caller to write in order before its own
   * (EventStore.appendInOrder: one commit where the store allows); undefined when this command's
   * claim is written already. Throws the rules' conflict when the key binds another; when the
   * append fails on the claim stream's revision, another claim came first: plan again.
   *
   * `firstTry`: the key is taken to be new, as most are (an address signing up), and the claim is
   * proposed as its stream's first without reading the stream: where the stream holds claims, the
   * append is refused on its revision, and the next plan reads them and decides. A retry of this
   * very command is no exception: its claim, found in the stream, is the store's answer.
   */
  plan(
    key: string,
    holderId: string,
    commandId: string,
    metadata: EventMetadata,
    options?: { firstTry?: boolean },
  ): Promise<StreamAppend | undefined>;
  /** Who holds the key now, not counting claims still in flight. */
  holderOf(key: string): Promise<string | undefined>;
}

/** What names claim streams: the key store's keyed hash, and its note on the names before it. */
export type ClaimNames = Pick<KeyStore, 'blindIndex'> & ClaimNotes;

export function claimStreamOf(kind: string, normalizedKey: string, names: ClaimNames): string {
  return `${kind}-${names.blindIndex(`claim:${kind}`, normalizedKey)}`;
}

/** Where a store written before keyed hashes has the key's claims. */
export function legacyClaimStreamOf(kind: string, normalizedKey: string): string {
  return `${kind}-${createHash('sha256').update(normalizedKey).digest('hex')}`;
}

/** Whether the holder's last event was recorded after `claim`: by global position where both are known, else by time. */
function recordedAfter(last: LoadedState<unknown>, claim: RecordedEvent): boolean {
  if (last.time === undefined) return false;
  if (last.position > 0 && claim.position > 0) return last.position > claim.position;
  return Date.parse(last.time) > Date.parse(claim.time);
}

const holderIdOf = (claim: RecordedEvent | undefined) => (claim?.data as { userId?: string } | undefined)?.userId;

export function uniqueClaims<Holder>(
  store: EventStore,
  names: ClaimNames,
  rules: ClaimRules<Holder>,
  now: () => Date = () => new Date(),
): Claims {
  const type = `${rules.kind}:claimed`;

  async function lastLegacyClaim(key: string): Promise<RecordedEvent | undefined> {
    if (!(await plainHashClaimsMayExist(store, names, now))) return undefined;
    return (await store.readStream(legacyClaimStreamOf(rules.kind, key))).at(-1);
  }

  /**
   * The claim that decides who holds the key: the last in its stream, or, before any was made
   * there, the last under the name a store written before keyed hashes gave it. Every claim in
   * the keyed stream was planned after that one was found free or the claimant's own.
   */
  async function lastClaim(
    key: string,
  ): Promise<{ streamId: string; last: RecordedEvent | undefined; binding: RecordedEvent | undefined }> {
    const streamId = claimStreamOf(rules.kind, key, names);
    const last = (await store.readStream(streamId)).at(-1);
    const binding = last ?? (await lastLegacyClaim(key));
    return { streamId, last, binding };
  }

  /** 'held', 'in-flight' or 'free', judged from the holder's own stream. */
  async function standing(key: string, claim: RecordedEvent): Promise<'held' | 'in-flight' | 'free'> {
    const holder = await loadState(store, rules.holder, rules.holderStream(holderIdOf(claim)!));
    if (!recordedAfter(holder, claim)) {
      return now().getTime() - Date.parse(claim.time) < CLAIM_GRACE_MS ? 'in-flight' : 'free';
    }
    return rules.holds(holder.state, key) ? 'held' : 'free';
  }

  async function plan(
    rawKey: string,
    holderId: string,
    commandId: string,
    metadata: EventMetadata,
    { firstTry = false }: { firstTry?: boolean } = {},
  ): Promise<StreamAppend | undefined> {
    const key = rules.normalize(rawKey);
    const streamId = claimStreamOf(rules.kind, key, names);
    const claimId = derivedId('claim', commandId, streamId);
    const claimAt = (expectedRevision: StreamAppend['expectedRevision']): StreamAppend => ({
      streamId,
      events: [{ id: claimId, type, data: { userId: holderId }, metadata }],
      expectedRevision,
    });
    // A claim under the older name would bind with nothing in the keyed stream to refuse the
    // append, so that name is still read first where one may be; one found is weighed as ever, below.
    if (firstTry && (await lastLegacyClaim(key)) === undefined) return claimAt('no_stream');
    const { last, binding } = await lastClaim(key);
    if (last?.id === claimId) return undefined; // a retry of this very command
    if (binding && holderIdOf(binding) !== holderId && (await standing(key, binding)) !== 'free') throw rules.conflict();
    // Appended even when the holder has the claim already: a racing claim by someone
    // else must meet this one in the claim stream.
    return claimAt(last ? last.revision : 'no_stream');
  }

  return {
    plan,

    async claim(rawKey, holderId, commandId, metadata) {
      for (let attempt = 1; ; attempt++) {
        const append = await plan(rawKey, holderId, commandId, metadata, { firstTry: attempt === 1 });
        if (!append) return;
        try {
          await store.append(append.streamId, append.events, { expectedRevision: append.expectedRevision });
          return;
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError) || attempt === CLAIM_ATTEMPTS) throw error;
        }
      }
    },

    async holderOf(rawKey) {
      const key = rules.normalize(rawKey);
      const last = (await lastClaim(key)).binding;
      if (!last) return undefined;
      const holder = await loadState(store, rules.holder, rules.holderStream(holderIdOf(last)!));
      return rules.holds(holder.state, key) ? holderIdOf(last) : undefined;
    },
  };
}
