// The sealing event store over the embedded adapter: transparent for everything that is not
// personal (the whole EventStore contract), sealed at rest, and null once the person is forgotten.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventStoreContract } from '../event-store/contract.ts';
import type { EventStoreHarness } from '../event-store/contract-harness.ts';
import { typesSubscriptionContract } from '../event-store/types-subscription.contract.ts';
import type { EventStore } from '../event-store/port.ts';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { newId } from '@eventide/kernel/ids.ts';
import type { KeyStore } from '../key-store/port.ts';
import { openSqliteKeyStore } from '../key-store/sqlite.ts';
import { sealingEventStore } from './event-store.ts';
import { isSealed } from '@eventide/kernel/events/personal-fields.ts';

async function sealing(): Promise<EventStoreHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-sealing-'));
  const keys = openSqliteKeyStore(join(dir, 'keys.db'));
  const open = () => sealingEventStore(openSqliteEventStore({ path: join(dir, 'events.db') }), keys);
  let store = open();
  return {
    allOrNone: true,
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = open();
      return store;
    },
    async dispose() {
      await store.close();
      await keys.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
eventStoreContract('embedded SQLite, sealing personal data', sealing);
typesSubscriptionContract('embedded SQLite, sealing personal data', sealing);

describe('sealing event store', () => {
  const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
  let dir: string;
  let keys: KeyStore;
  let raw: EventStore;
  let store: EventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'eventide-sealing-'));
    keys = openSqliteKeyStore(join(dir, 'keys.db'));
    raw = openSqliteEventStore({ path: join(dir, 'events.db') });
    store = sealingEventStore(raw, keys);
  });
  afterEach(async () => {
    await store.close();
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const filesHold = (text: string) => readdirSync(dir).some((name) => readFileSync(join(dir, name)).includes(text));

  async function createUser(name: string, email: string) {
    const userId = newId();
    await store.appendInOrder([
      {
        streamId: `user-${userId}`,
        events: [
          { id: newId(), type: 'user:created', data: { userId, name, email }, metadata },
          { id: newId(), type: 'user:updated', data: { userId, changes: { name: `${name} II` } }, metadata },
        ],
        expectedRevision: 'no_stream',
      },
      {
        streamId: `account-${userId}`,
        events: [{ id: newId(), type: 'account:password-set', data: { hash: 'scrypt$secret' }, metadata }],
        expectedRevision: 'no_stream',
      },
    ]);
    return userId;
  }

  it('commits the sign-ups whose keys it makes in the turn the keys are committed, not a turn later', async () => {
    // Asked for in one macrotask: their keys are made in one batch (an immediate), and their events
    // must be committed by the group commit kept for them right behind it. An immediate set after
    // both finds them committed; without the kept commit they would wait for the next turn.
    const committed: boolean[] = [];
    const seenBehind = await new Promise<boolean[]>((resolve) => {
      setTimeout(() => {
        for (let i = 0; i < 5; i++) void createUser(`Person ${i}`, `person-${i}@example.com`).then(() => committed.push(true));
        setImmediate(() => resolve([...committed]));
      }, 0);
    });
    expect(seenBehind).toHaveLength(5);
  });

  it('keeps personal fields sealed at rest and gives them back on every read', async () => {
    const userId = await createUser('Ada Lovelace', 'ada@example.com');
    const stored = await raw.readStream(`user-${userId}`);
    expect(isSealed((stored[0]!.data as { email: unknown }).email)).toBe(true);
    expect((stored[0]!.data as { userId: string }).userId).toBe(userId);
    expect(JSON.stringify(await raw.readAll())).not.toMatch(/Ada|ada@|scrypt/);
    expect(filesHold('ada@example.com')).toBe(false);

    const [created, updated] = await store.readStream(`user-${userId}`);
    expect(created!.data).toEqual({ userId, name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(updated!.data).toEqual({ userId, changes: { name: 'Ada Lovelace II' } });
    expect(created!.forgotten).toBeUndefined();
    expect((await store.readAll()).map((e) => e.data)).toContainEqual({ hash: 'scrypt$secret' });
  });

  it('reads a forgotten person as null, marked forgotten, everywhere, and spares everyone else', async () => {
    const ada = await createUser('Ada Lovelace', 'ada@example.com');
    const bob = await createUser('Bob Babbage', 'bob@example.com');
    expect(await keys.forget(ada)).toBe('forgotten');

    const [created] = await store.readStream(`user-${ada}`);
    expect(created!.data).toEqual({ userId: ada, name: null, email: null });
    expect(created!.forgotten).toBe(true);
    const all = await store.readAll();
    expect(all.filter((e) => e.forgotten).map((e) => e.streamId)).toEqual([`user-${ada}`, `user-${ada}`, `account-${ada}`]);
    expect(all.find((e) => e.streamId === `user-${bob}`)!.data).toEqual({ userId: bob, name: 'Bob Babbage', email: 'bob@example.com' });

    const followed: typeof all = [];
    for await (const event of store.subscribeToAll({ signal: AbortSignal.timeout(5_000) })) {
      followed.push(event);
      if (followed.length === all.length) break;
    }
    expect(followed).toEqual(all);
  });

  it('opens what a subscription has ready with one lookup of keys, not one per event', async () => {
    const people = ['Ada Lovelace', 'Bob Babbage', 'Cy Clops', 'Di Gamma'];
    for (const name of people) await createUser(name, `${name.split(' ')[0]!.toLowerCase()}@example.com`);
    let lookups = 0;
    const counting = new Proxy(keys, {
      get: (target, property, receiver) =>
        property === 'lookup'
          ? (subjects: string[]) => {
              lookups++;
              return target.lookup(subjects);
            }
          : Reflect.get(target, property, receiver),
    });
    const all = await store.readAll();
    const followed: typeof all = [];
    for await (const event of sealingEventStore(raw, counting).subscribeToAll({ signal: AbortSignal.timeout(5_000) })) {
      followed.push(event);
      if (followed.length === all.length) break;
    }
    expect(followed).toEqual(all);
    expect(followed.filter((e) => e.type === 'user:created').map((e) => (e.data as { name: string }).name)).toEqual(people);
    expect(lookups).toBe(1);
  });

  it('seals the snapshots of a person, and keeps none of them once they are forgotten', async () => {
    const userId = await createUser('Ada Lovelace', 'ada@example.com');
    const [, last] = await store.readStream(`user-${userId}`);
    const snapshot = {
      version: 'v1',
      revision: 1,
      position: last!.position,
      time: last!.time,
      state: { name: 'Ada Lovelace II', email: 'ada@example.com' },
    };
    await store.saveSnapshot(`user-${userId}`, snapshot);
    expect(JSON.stringify(await raw.readSnapshot(`user-${userId}`, { version: 'v1' }))).not.toMatch(/Ada|ada@/);
    expect(await store.readSnapshot(`user-${userId}`, { version: 'v1' })).toEqual(snapshot);

    await keys.forget(userId);
    expect(await store.readSnapshot(`user-${userId}`, { version: 'v1' })).toBeUndefined();
    await store.saveSnapshot(`user-${userId}`, { ...snapshot, state: { name: null } });
    expect(await raw.readSnapshot(`user-${userId}`, { version: 'v1' })).toMatchObject({ revision: 1 });
    expect(await store.readSnapshot(`user-${userId}`, { version: 'v1' })).toBeUndefined();
  });

  it('refuses to append personal data about a forgotten person', async () => {
    const userId = await createUser('Ada Lovelace', 'ada@example.com');
    await keys.forget(userId);
    const again = store.append(
      `user-${userId}`,
      [{ id: newId(), type: 'user:updated', data: { userId, changes: { name: 'Ada' } }, metadata }],
      {
        expectedRevision: 'any',
      },
    );
    await expect(again).rejects.toThrow(/was forgotten/);
    expect(await raw.readStream(`user-${userId}`)).toHaveLength(2);
  });
});
