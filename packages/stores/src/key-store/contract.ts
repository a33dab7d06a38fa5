// The contract every KeyStore adapter passes. Two stores opened on one backing store stand for two
// processes sharing it; each test uses subjects of its own.
import { describe, expect, it } from 'vitest';
import { newId } from '@eventide/kernel/ids.ts';
import { KEY_BYTES, SubjectForgottenError, type KeyStore } from './port.ts';

export interface KeyStoreHarness {
  /** A store as one more process would open it, on the same backing store. */
  open(): Promise<KeyStore>;
  dispose(): Promise<void>;
}

export function keyStoreContract(name: string, harness: () => Promise<KeyStoreHarness>): void {
  describe(`KeyStore contract: ${name}`, () => {
    async function withStores(body: (open: () => Promise<KeyStore>) => Promise<void>) {
      const h = await harness();
      const opened: KeyStore[] = [];
      try {
        await body(async () => {
          const store = await h.open();
          opened.push(store);
          return store;
        });
      } finally {
        for (const store of opened) await store.close();
        await h.dispose();
      }
    }

    it('makes a key on first use and gives the same one after, to every process', () =>
      withStores(async (open) => {
        const [one, two] = [await open(), await open()];
        const subject = newId();
        expect((await one.lookup([subject])).get(subject)).toEqual({ state: 'unknown' });
        const key = await one.keyFor(subject);
        expect(key).toHaveLength(KEY_BYTES);
        expect(await one.keyFor(subject)).toEqual(key);
        expect(await two.keyFor(subject)).toEqual(key);
        expect((await two.lookup([subject])).get(subject)).toEqual({ state: 'active', key });
        expect(await one.keyFor(newId())).not.toEqual(key);
      }));

    it('answers a subject said to be likely new as any other: its key if it has one, a refusal if it was forgotten', () =>
      withStores(async (open) => {
        const [one, two] = [await open(), await open()];
        const subject = newId();
        const key = await one.keyFor(subject, { likelyNew: true });
        expect(await one.keyFor(subject, { likelyNew: true })).toEqual(key);
        expect(await two.keyFor(subject, { likelyNew: true })).toEqual(key);
        expect(await two.keyFor(subject)).toEqual(key);
        await one.forget(subject);
        await expect(two.keyFor(subject, { likelyNew: true })).rejects.toBeInstanceOf(SubjectForgottenError);
      }));

    it('gives racing first uses one key', () =>
      withStores(async (open) => {
        const [one, two] = [await open(), await open()];
        const subject = newId();
        const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).keyFor(subject)));
        for (const key of keys) expect(key).toEqual(keys[0]);
      }));

    it('makes the keys of many subjects asked for at once, each its own, and keeps them', () =>
      withStores(async (open) => {
        const store = await open();
        const subjects = Array.from({ length: 40 }, () => newId());
        const keys = await Promise.all(subjects.map((s) => store.keyFor(s)));
        expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(subjects.length);
        const states = await (await open()).lookup(subjects);
        for (const [i, subject] of subjects.entries()) expect(states.get(subject)).toEqual({ state: 'active', key: keys[i] });
      }));

    it('forgets a key for good, for every process, and never makes another for that subject', () =>
      withStores(async (open) => {
        const [one, two] = [await open(), await open()];
        const subject = newId();
        await one.keyFor(subject);
        expect(await one.forget(subject)).toBe('forgotten');
        const state = (await two.lookup([subject])).get(subject)!;
        expect(state.state).toBe('forgotten');
        expect(Number.isNaN(Date.parse((state as { forgottenAt: string }).forgottenAt))).toBe(false);
        await expect(two.keyFor(subject)).rejects.toBeInstanceOf(SubjectForgottenError);
        await expect(one.keyFor(subject)).rejects.toBeInstanceOf(SubjectForgottenError);
      }));

    it('says what a repeated forget or the forget of an unknown subject found, and keeps both forgotten', () =>
      withStores(async (open) => {
        const store = await open();
        const known = newId();
        await store.keyFor(known);
        expect(await store.forget(known)).toBe('forgotten');
        const first = (await store.lookup([known])).get(known);
        expect(await store.forget(known)).toBe('already-forgotten');
        expect((await store.lookup([known])).get(known)).toEqual(first);
        const stranger = newId();
        expect(await store.forget(stranger)).toBe('unknown');
        expect(await store.forget(stranger)).toBe('already-forgotten');
        await expect(store.keyFor(stranger)).rejects.toBeInstanceOf(SubjectForgottenError);
      }));

    it('looks up many subjects at once, making no key', () =>
      withStores(async (open) => {
        const store = await open();
        const [active, forgotten, unknown] = [newId(), newId(), newId()];
        const key = await store.keyFor(active);
        await store.keyFor(forgotten);
        await store.forget(forgotten);
        const states = await store.lookup([active, forgotten, unknown]);
        expect(states.get(active)).toEqual({ state: 'active', key });
        expect(states.get(forgotten)?.state).toBe('forgotten');
        expect(states.get(unknown)).toEqual({ state: 'unknown' });
        expect((await store.lookup([unknown])).get(unknown)).toEqual({ state: 'unknown' });
      }));

    it('hashes values by purpose under a secret every process shares', () =>
      withStores(async (open) => {
        const [one, two] = [await open(), await open()];
        const hash = one.blindIndex('email', 'ada@example.com');
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(two.blindIndex('email', 'ada@example.com')).toBe(hash);
        expect(one.blindIndex('email', 'bob@example.com')).not.toBe(hash);
        expect(one.blindIndex('identity', 'ada@example.com')).not.toBe(hash);
        // The purpose and the value are kept apart: no pair can pass for another.
        expect(one.blindIndex('a', 'bc')).not.toBe(one.blindIndex('ab', 'c'));
      }));

    it('keeps notes every process reads, the last set of each name, apart from the secret', () =>
      withStores(async (open) => {
        const [one, two] = [await open(), await open()];
        const name = `contract-${newId()}`;
        expect(await one.note(name)).toBeUndefined();
        await one.setNote(name, '{"since":"2026-11-30T00:00:00.000Z"}');
        expect(await two.note(name)).toBe('{"since":"2026-11-30T00:00:00.000Z"}');
        await two.setNote(name, 'ünïcode, replaced');
        expect(await one.note(name)).toBe('ünïcode, replaced');
        // A note under the secret's own name is not the secret: the names it makes stay as they were.
        const hash = one.blindIndex('email', 'ada@example.com');
        await one.setNote('blind-index', 'not a secret');
        expect((await open()).blindIndex('email', 'ada@example.com')).toBe(hash);
      }));
  });
}
