// `npm run admin -- seal-existing` (docs/privacy.md#a-store-written-before-sealing): seals, in
// place, the personal fields that an embedded event store written before sealing still holds in
// clear, so that forgetting works for everyone in it. What it does, for each person:
// - still a user: their clear fields are sealed under their key (made now if they had none);
// - deleted, or forgotten already: their clear fields are sealed under a key that is thrown away
//   at once, so they read as forgotten (null, `forgotten: true`) like any forgotten person's,
//   and their key, if any, is destroyed;
// - the email claims of deleted people bind nothing: whatever their name, they are retired under a
//   random one, so that no guess of a forgotten address can be checked against a stream name;
// - the other email and provider claims named by a plain SHA-256 get keyed names (claims.ts), or a
//   retired keyed name where a claim under the new name exists already;
// - snapshots of personal streams kept in clear are dropped (a cache: they are made again, sealed).
// Event ids, positions and types never change. Running it again finds nothing left to do.
import { createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import type { SqliteMaintenance, StoredEvent } from '@eventide/stores/event-store/sqlite-maintenance.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { normalizeEmail } from '@eventide/kernel/models/user/state.ts';
import { openFields, sealFields } from '@eventide/stores/personal-data/fields.ts';
import { PERSONAL_FIELDS, PERSONAL_STREAMS, hasClearFields, sealedSubjects, subjectOf } from '@eventide/kernel/events/personal-fields.ts';
import { activeKeyObjects } from '@eventide/stores/personal-data/sealed.ts';
import { isSealed } from '@eventide/kernel/events/personal-fields.ts';
import { claimStreamOf, legacyClaimStreamOf } from './claims.ts';
import { identityKey } from './account/identity-claim.ts';
import { NO_PLAIN_HASH_CLAIMS_NOTE, type NoPlainHashClaims } from './plain-hash-claims.ts';

export interface SealReport {
  /** Events whose clear fields were sealed under their person's key. */
  sealed: number;
  /** Events of deleted or forgotten people, now reading as forgotten. */
  forgotten: number;
  /** People whose fields were sealed, and deleted people now forgotten. */
  people: number;
  deletedPeople: number;
  /** Claims with plain-hash names that got keyed ones. */
  renamedClaims: number;
  /** Email claims of deleted people, renamed to random names. */
  retiredClaims: number;
  droppedSnapshots: number;
}

/** The keys of the claims a clear event made: its address, or its provider identity. */
function claimedBy(event: StoredEvent): Array<['email' | 'identity', string]> {
  const data = event.data as Record<string, unknown>;
  const email =
    event.type === 'user:created'
      ? data.email
      : event.type === 'user:updated'
        ? (data.changes as Record<string, unknown> | undefined)?.email
        : undefined;
  if (typeof email === 'string') return [['email', normalizeEmail(email)]];
  if (event.type === 'account:identity-linked' && typeof data.provider === 'string' && typeof data.subject === 'string') {
    return [['identity', identityKey({ provider: data.provider, subject: data.subject })]];
  }
  return [];
}

/**
 * The events of a page with their sealed fields opened where the person's key is there: what
 * they claimed, when a version between sealing and keyed claim names wrote their claims.
 */
async function opened(events: StoredEvent[], keys: KeyStore): Promise<StoredEvent[]> {
  const subjects = [...new Set(events.flatMap((e) => sealedSubjects(e.type, e.data)))];
  if (subjects.length === 0) return events;
  const keyObjects = activeKeyObjects(await keys.lookup(subjects));
  return events.map((e) => ({ ...e, data: openFields(e.type, e.data, (s) => keyObjects.get(s)).data }));
}

export async function sealExisting(store: SqliteMaintenance, keys: KeyStore): Promise<SealReport> {
  const report: SealReport = {
    sealed: 0,
    forgotten: 0,
    people: 0,
    deletedPeople: 0,
    renamedClaims: 0,
    retiredClaims: 0,
    droppedSnapshots: 0,
  };
  const claims = new Map<string, ['email' | 'identity', string]>();
  const seen = new Set<string>();

  for (const page of store.eventsOfTypes(Object.keys(PERSONAL_FIELDS))) {
    const personal = page.filter((e) => subjectOf(e.streamId) !== undefined);
    for (const event of await opened(personal, keys)) for (const claim of claimedBy(event)) claims.set(claim.join('\n'), claim);
    const clear = personal.filter((e) => hasClearFields(e.type, e.data));
    if (clear.length === 0) continue;

    const subjects = [...new Set(clear.map((e) => subjectOf(e.streamId)!))];
    const states = await keys.lookup(subjects);
    const gone = new Set<string>();
    for (const subject of subjects) {
      const deleted = store.streamHas(`user-${subject}`, 'user:deleted');
      if (deleted || states.get(subject)?.state === 'forgotten') gone.add(subject);
      if (deleted && states.get(subject)?.state !== 'forgotten') await keys.forget(subject);
      if (!seen.has(subject)) {
        seen.add(subject);
        if (gone.has(subject)) report.deletedPeople++;
        else report.people++;
      }
    }
    const live = subjects.filter((s) => !gone.has(s));
    const liveKeys = new Map(await Promise.all(live.map(async (s) => [s, createSecretKey(await keys.keyFor(s))] as const)));

    store.transaction(() => {
      for (const event of clear) {
        const subject = subjectOf(event.streamId)!;
        // A forgotten person's values are sealed under a key nobody keeps: they read as forgotten.
        const key = liveKeys.get(subject) ?? createSecretKey(randomBytes(32));
        store.replaceData(event.position, sealFields(event.type, event.data, subject, key));
        if (liveKeys.has(subject)) report.sealed++;
        else report.forgotten++;
      }
    });
  }

  // An address binds only while its holder is active (user/email-claim.ts): a deleted holder's
  // claim binds nothing, so renaming it changes no decision.
  for (const { streamId, data } of store.lastEventOfEachStream('email-')) {
    if (streamId.startsWith('email-retired-')) continue;
    const holder = (data as { userId?: unknown } | null)?.userId;
    if (typeof holder !== 'string' || !store.streamHas(`user-${holder}`, 'user:deleted')) continue;
    store.transaction(() => store.renameStream(streamId, `email-retired-${randomUUID()}`));
    report.retiredClaims++;
  }

  for (const [kind, key] of claims.values()) {
    const legacy = legacyClaimStreamOf(kind, key);
    if (!store.streamExists(legacy)) continue;
    const current = claimStreamOf(kind, key, keys);
    // A claim under the keyed name supersedes the old one (claims.ts); the old is kept, unnamed.
    const target = store.streamExists(current) ? `${kind}-retired-${keys.blindIndex(`claim-retired:${kind}`, key)}` : current;
    store.transaction(() => store.renameStream(legacy, target));
    report.renamedClaims++;
  }

  // Every claim that still binds has a keyed name now (a claim left under its plain hash is a
  // forgotten holder's, whose address cannot be read to rename it, and binds nothing): claims
  // need not read those names in this store any more (plain-hash-claims.ts).
  const firstEventId = store.firstEventId();
  if (firstEventId !== undefined) {
    await keys.setNote(NO_PLAIN_HASH_CLAIMS_NOTE, JSON.stringify({ firstEventId } satisfies NoPlainHashClaims));
  }

  report.droppedSnapshots = store.dropSnapshots(PERSONAL_STREAMS, (state: JsonValue) => isSealed(state));
  store.checkpoint();
  return report;
}
