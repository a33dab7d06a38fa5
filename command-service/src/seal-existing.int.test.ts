// Sealing in place what an embedded store written before sealing holds in clear
// (`npm run admin -- seal-existing`): afterwards nothing personal is in clear in any file, the
// living read their data as before, the deleted read as forgotten, and the old claims still bind.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import { openSqliteMaintenance } from '@eventide/stores/event-store/sqlite-maintenance.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { newId } from '@eventide/kernel/ids.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { openSqliteKeyStore } from '@eventide/stores/key-store/sqlite.ts';
import { sealingEventStore } from '@eventide/stores/personal-data/event-store.ts';
import { legacyClaimStreamOf } from './claims.ts';
import { sealExisting } from './seal-existing.ts';
import { NO_PLAIN_HASH_CLAIMS_NOTE } from './plain-hash-claims.ts';
import { notingReads } from './testing/reads.ts';
import { EMAIL_CLAIMED, claimStreamId, emailClaims } from './user/email-claim.ts';

const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
const event = (type: string, data: Record<string, unknown>): NewEvent => ({ id: newId(), type, data: data as never, metadata });

let dir: string;
let keys: KeyStore;
const alive = {
  id: newId(),
  name: 'Clearwater Alive',
  renamed: 'Clearwater Still',
  email: 'clear.alive@example.test',
  hash: 'scrypt$clear-hash',
};
const gone = { id: newId(), name: 'Clearwater Gone', email: 'clear.gone@example.test' };
/** Written by the version between sealing and keyed claim names: sealed events, plain-hash claims. */
const between = { id: newId(), email: 'between@example.test' };
const betweenGone = { id: newId(), email: 'between.gone@example.test' };

/** A store as the code before sealing wrote it: every personal field in clear, claims by plain hash. */
async function writeOldStore(): Promise<void> {
  const old = openSqliteEventStore({ path: join(dir, 'events.db') });
  const claim = (email: string, userId: string) =>
    old.append(legacyClaimStreamOf('email', email), [event(EMAIL_CLAIMED, { userId })], { expectedRevision: 'no_stream' });
  await claim(alive.email, alive.id);
  await old.append(`user-${alive.id}`, [event('user:created', { userId: alive.id, name: alive.name, email: alive.email })], {
    expectedRevision: 'no_stream',
  });
  await old.append(`account-${alive.id}`, [event('account:password-set', { hash: alive.hash })], { expectedRevision: 'no_stream' });
  await old.append(`user-${alive.id}`, [event('user:updated', { userId: alive.id, changes: { name: alive.renamed } })], {
    expectedRevision: 0,
  });
  await old.saveSnapshot(`user-${alive.id}`, {
    version: 'v',
    revision: 1,
    ...(await old.readStream(`user-${alive.id}`)).map(({ position, time }) => ({ position, time }))[1]!,
    state: { name: alive.renamed, email: alive.email },
  });
  await claim(gone.email, gone.id);
  await old.append(
    `user-${gone.id}`,
    [event('user:created', { userId: gone.id, name: gone.name, email: gone.email }), event('user:deleted', { userId: gone.id })],
    { expectedRevision: 'no_stream' },
  );
  await old.append(`product-${newId()}`, [event('product:created', { name: 'Untouched kettle' })], { expectedRevision: 'no_stream' });
  const sealing = sealingEventStore(old, keys);
  for (const person of [between, betweenGone]) {
    await claim(person.email, person.id);
    await sealing.append(`user-${person.id}`, [event('user:created', { userId: person.id, name: 'B', email: person.email })], {
      expectedRevision: 'no_stream',
    });
  }
  await sealing.append(`user-${betweenGone.id}`, [event('user:deleted', { userId: betweenGone.id })], { expectedRevision: 0 });
  await keys.forget(betweenGone.id);
  await old.close();
}

const filesHolding = (text: string) => readdirSync(dir).filter((name) => readFileSync(join(dir, name)).includes(text));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-seal-existing-'));
  keys = openSqliteKeyStore(join(dir, 'keys.db'));
  await writeOldStore();
});
afterEach(async () => {
  await keys.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run() {
  const maintenance = openSqliteMaintenance(join(dir, 'events.db'));
  try {
    return await sealExisting(maintenance, keys);
  } finally {
    maintenance.close();
  }
}

describe('seal-existing', () => {
  it('leaves nothing personal in clear in any file, beside a running server, and says what it did', async () => {
    expect(filesHolding(alive.email)).toContain('events.db');
    // A server's connection stays open throughout, so closing ours does not empty the log for us.
    const server = openSqliteEventStore({ path: join(dir, 'events.db') });
    try {
      await server.readAll();
      expect(await run()).toEqual({
        sealed: 3,
        forgotten: 1,
        people: 1,
        deletedPeople: 1,
        renamedClaims: 2,
        retiredClaims: 2,
        droppedSnapshots: 1,
      });
      for (const text of [alive.name, alive.renamed, alive.email, alive.hash, gone.name, gone.email]) {
        expect(filesHolding(text)).toEqual([]);
      }
      expect(filesHolding('Untouched kettle')).toEqual(['events.db']);
    } finally {
      await server.close();
    }
  });

  it('lets the living read their data as before, and the deleted read as forgotten', async () => {
    await run();
    const store = sealingEventStore(openSqliteEventStore({ path: join(dir, 'events.db') }), keys);
    try {
      const [created, updated] = await store.readStream(`user-${alive.id}`);
      expect(created).toMatchObject({ data: { name: alive.name, email: alive.email } });
      expect(created!.forgotten).toBeUndefined();
      expect(updated).toMatchObject({ data: { changes: { name: alive.renamed } } });
      expect((await store.readStream(`account-${alive.id}`))[0]).toMatchObject({ data: { hash: alive.hash } });
      expect((await store.readStream(`user-${gone.id}`))[0]).toMatchObject({ forgotten: true, data: { name: null, email: null } });
      expect((await keys.lookup([gone.id])).get(gone.id)?.state).toBe('forgotten');

      // The old claims moved to keyed names, and still bind as they did.
      const claims = emailClaims(store, keys);
      expect(await claims.holderOf(alive.email)).toBe(alive.id);
      expect(await claims.holderOf(gone.email)).toBeUndefined();
      expect(await claims.holderOf(between.email)).toBe(between.id);
      // No claim stream is left under a name that a guessed address would give.
      for (const email of [alive.email, gone.email, between.email, betweenGone.email]) {
        expect(await store.readStream(legacyClaimStreamOf('email', email)), email).toEqual([]);
      }
      expect(await store.readStream(claimStreamId(gone.email, keys))).toEqual([]);

      // Nothing binding is left under those names, and the key store says so of this store: claims
      // made since read none of them.
      const [first] = await store.readAll({ limit: 1 });
      expect(JSON.parse((await keys.note(NO_PLAIN_HASH_CLAIMS_NOTE))!)).toEqual({ firstEventId: first!.id });
      const { store: noted, reads } = notingReads(store);
      expect(await emailClaims(noted, keys).holderOf(alive.email)).toBe(alive.id);
      await emailClaims(noted, keys).claim('new.after.sealing@example.test', newId(), newId(), metadata);
      expect(reads.filter((streamId) => streamId === legacyClaimStreamOf('email', 'new.after.sealing@example.test'))).toEqual([]);
      expect(reads).not.toContain(legacyClaimStreamOf('email', alive.email));
    } finally {
      await store.close();
    }
  });

  it('finds nothing left to do the second time', async () => {
    await run();
    expect(await run()).toEqual({
      sealed: 0,
      forgotten: 0,
      people: 0,
      deletedPeople: 0,
      renamedClaims: 0,
      retiredClaims: 0,
      droppedSnapshots: 0,
    });
  });
});
