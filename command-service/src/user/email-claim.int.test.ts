// The email claim rules, on the embedded store with a clock the test moves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { Refusal, type RefusalKind } from '@eventide/kernel/models/refusal.ts';
import { newId } from '@eventide/kernel/ids.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { openSqliteKeyStore } from '@eventide/stores/key-store/sqlite.ts';
import { legacyClaimStreamOf } from '../claims.ts';
import { CLAIM_GRACE_MS, EMAIL_CLAIMED, claimStreamId, emailClaims, type EmailClaims } from './email-claim.ts';
import { notingReads } from '../testing/reads.ts';
import { NO_PLAIN_HASH_CLAIMS_NOTE } from '../plain-hash-claims.ts';

const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
let dir: string;
let store: EventStore;
let keys: KeyStore;
let clock: number;
let claims: EmailClaims;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-claims-'));
  clock = Date.parse('2026-11-20T12:00:00Z');
  store = openSqliteEventStore({ path: join(dir, 'events.db'), clock: () => new Date(clock) });
  keys = openSqliteKeyStore(join(dir, 'keys.db'));
  claims = emailClaims(store, keys, () => new Date(clock));
});
afterEach(async () => {
  await store.close();
  await keys.close();
  rmSync(dir, { recursive: true, force: true });
});

async function userEvent(userId: string, type: string, data: Record<string, unknown>) {
  await store.append(`user-${userId}`, [{ id: newId(), type, data: { userId, ...data }, metadata }], { expectedRevision: 'any' });
}

/** What POST /users does: claim, then record the user. */
async function createUser(email: string): Promise<string> {
  const userId = newId();
  await claims.claim(email, userId, newId(), metadata);
  await userEvent(userId, 'user:created', { name: 'U', email });
  return userId;
}

async function outcome(promise: Promise<void>): Promise<'claimed' | RefusalKind> {
  try {
    await promise;
    return 'claimed';
  } catch (error) {
    if (error instanceof Refusal) return error.kind;
    throw error;
  }
}

describe('email claims', () => {
  it('gives a free address to exactly one of two racing users', async () => {
    const results = await Promise.all([
      outcome(claims.claim('x@example.com', newId(), newId(), metadata)),
      outcome(claims.claim('X@Example.com', newId(), newId(), metadata)),
    ]);
    expect(results.sort()).toEqual(['claimed', 'conflict']);
  });

  it('binds while its holder holds the address, however old it is', async () => {
    await createUser('held@example.com');
    clock += 10 * CLAIM_GRACE_MS;
    expect(await outcome(claims.claim('held@example.com', newId(), newId(), metadata))).toBe('conflict');
  });

  it('binds a claim in flight for the grace period, then frees it', async () => {
    await claims.claim('flight@example.com', newId(), newId(), metadata); // its user never recorded
    expect(await outcome(claims.claim('flight@example.com', newId(), newId(), metadata))).toBe('conflict');
    clock += CLAIM_GRACE_MS;
    expect(await outcome(claims.claim('flight@example.com', newId(), newId(), metadata))).toBe('claimed');
  });

  it('frees the old address when its holder moves to another, at once', async () => {
    const a = await createUser('old@example.com');
    await claims.claim('new@example.com', a, newId(), metadata);
    await userEvent(a, 'user:updated', { changes: { email: 'new@example.com' } });
    expect(await outcome(claims.claim('old@example.com', newId(), newId(), metadata))).toBe('claimed');
    expect(await outcome(claims.claim('new@example.com', newId(), newId(), metadata))).toBe('conflict');
  });

  it('frees the address of a deleted user, at once', async () => {
    const a = await createUser('deleted@example.com');
    await userEvent(a, 'user:deleted', {});
    expect(await outcome(claims.claim('deleted@example.com', newId(), newId(), metadata))).toBe('claimed');
  });

  it('serialises a holder taking an address back with another user taking it', async () => {
    const a = await createUser('back@example.com');
    await claims.claim('away@example.com', a, newId(), metadata);
    await userEvent(a, 'user:updated', { changes: { email: 'away@example.com' } });
    clock += 2 * CLAIM_GRACE_MS; // no claim here is in flight any more
    // `a` moves back while `b` takes the address it left: only one may end up with it.
    const results = await Promise.all([
      outcome(claims.claim('back@example.com', a, newId(), metadata)),
      outcome(claims.claim('back@example.com', newId(), newId(), metadata)),
    ]);
    expect(results.sort()).toEqual(['claimed', 'conflict']);
  });

  it('writes nothing more when a command retries its claim', async () => {
    const userId = newId();
    const commandId = newId();
    await claims.claim('retry@example.com', userId, commandId, metadata);
    await claims.claim('retry@example.com', userId, commandId, metadata);
    expect(await store.readStream(claimStreamId('retry@example.com', keys))).toHaveLength(1);
  });

  it('claims a new address without reading its stream, and still refuses a taken one', async () => {
    const { store: noted, reads: read } = notingReads(store);
    const counting = emailClaims(noted, keys, () => new Date(clock));
    const holder = newId();
    await counting.claim('first@example.com', holder, newId(), metadata);
    expect(read).not.toContain(claimStreamId('first@example.com', keys));
    expect(await store.readStream(claimStreamId('first@example.com', keys))).toHaveLength(1);
    // Taken: the guess is refused by the store, and the second try reads the claim and weighs it.
    await userEvent(holder, 'user:created', { name: 'F', email: 'first@example.com' });
    expect(await outcome(counting.claim('First@example.com', newId(), newId(), metadata))).toBe('conflict');
    expect(read).toContain(claimStreamId('first@example.com', keys));
  });

  it('names its stream so that a guessed address cannot be checked without the key store', async () => {
    await createUser('Guess.Me@example.com');
    const streams = new Set((await store.readAll()).map((e) => e.streamId));
    expect(streams).toContain(claimStreamId('guess.me@example.com', keys));
    expect(streams).not.toContain(legacyClaimStreamOf('email', 'guess.me@example.com'));
    const otherKeys = openSqliteKeyStore(join(dir, 'other-keys.db'));
    expect(claimStreamId('guess.me@example.com', otherKeys)).not.toBe(claimStreamId('guess.me@example.com', keys));
    await otherKeys.close();
  });

  it('reads no plain-hash name in a store it found empty, and notes that for every process', async () => {
    const { store: noted, reads } = notingReads(store);
    const holder = newId();
    await emailClaims(noted, keys, () => new Date(clock)).claim('fresh@example.com', holder, newId(), metadata);
    await userEvent(holder, 'user:created', { name: 'F', email: 'fresh@example.com' });
    expect(JSON.parse((await keys.note(NO_PLAIN_HASH_CLAIMS_NOTE))!)).toEqual({ emptyAt: new Date(clock).toISOString() });
    // Another process, on a store that is no longer empty: the note answers for it.
    const another = notingReads(store);
    const claims = emailClaims(another.store, keys, () => new Date(clock));
    expect(await outcome(claims.claim('fresh@example.com', newId(), newId(), metadata))).toBe('conflict');
    expect(await outcome(claims.claim('second@example.com', newId(), newId(), metadata))).toBe('claimed');
    for (const email of ['fresh@example.com', 'second@example.com']) {
      expect([...reads, ...another.reads]).not.toContain(legacyClaimStreamOf('email', email));
    }
  });

  it('takes no note of another event store for this one: a store older than the note is read as ever', async () => {
    await emailClaims(store, keys, () => new Date(clock)).claim('fresh@example.com', newId(), newId(), metadata);
    expect(await keys.note(NO_PLAIN_HASH_CLAIMS_NOTE)).toBeDefined();
    // Events restored from a backup taken before the note, beside the same key store.
    const restored = openSqliteEventStore({ path: join(dir, 'restored.db'), clock: () => new Date(clock - 86_400_000) });
    try {
      const userId = newId();
      await restored.append(
        legacyClaimStreamOf('email', 'old@example.com'),
        [{ id: newId(), type: EMAIL_CLAIMED, data: { userId }, metadata }],
        {
          expectedRevision: 'no_stream',
        },
      );
      await restored.append(
        `user-${userId}`,
        [{ id: newId(), type: 'user:created', data: { userId, name: 'O', email: 'old@example.com' }, metadata }],
        {
          expectedRevision: 'no_stream',
        },
      );
      const claims = emailClaims(restored, keys, () => new Date(clock));
      expect(await claims.holderOf('old@example.com')).toBe(userId);
      expect(await outcome(claims.claim('old@example.com', newId(), newId(), metadata))).toBe('conflict');
    } finally {
      await restored.close();
    }
  });

  it('still binds a claim that a store written before keyed names holds under its plain hash', async () => {
    const userId = newId();
    const legacy = legacyClaimStreamOf('email', 'legacy@example.com');
    await store.append(legacy, [{ id: newId(), type: EMAIL_CLAIMED, data: { userId }, metadata }], { expectedRevision: 'no_stream' });
    await userEvent(userId, 'user:created', { name: 'L', email: 'legacy@example.com' });
    expect(await claims.holderOf('Legacy@example.com')).toBe(userId);
    expect(await outcome(claims.claim('legacy@example.com', newId(), newId(), metadata))).toBe('conflict');
    // Its holder may claim it again (under the new name), and once they move away it is free.
    await claims.claim('legacy@example.com', userId, newId(), metadata);
    await claims.claim('moved@example.com', userId, newId(), metadata);
    await userEvent(userId, 'user:updated', { changes: { email: 'moved@example.com' } });
    expect(await outcome(claims.claim('legacy@example.com', newId(), newId(), metadata))).toBe('claimed');
  });
});
