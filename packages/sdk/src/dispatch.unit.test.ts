import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KeyState } from '@eventide/stores/key-store/port.ts';
import { sealFields } from '@eventide/stores/personal-data/fields.ts';
import { Dispatcher, type DeadLetter } from './dispatch.ts';
import type { KeyLookup } from './personal.ts';
import { currentSchemaVersion } from '@eventide/kernel/events/versions.ts';

const envelope = (id: string, type = 'user:created', data: unknown = { userId: 'u1', name: 'Ann', email: 'ann@example.com' }) =>
  JSON.stringify({
    id,
    type,
    streamId: 'user-u1',
    revision: 0,
    position: 1,
    time: '2026-11-20T00:00:00.000Z',
    data,
    metadata: { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } },
  });

function setup(options: { dedupe?: boolean; attempts?: number; keys?: KeyLookup } = {}) {
  const letters: DeadLetter[] = [];
  const delays: number[] = [];
  const dispatcher = new Dispatcher({
    keys: options.keys,
    dedupe: options.dedupe,
    retry: { attempts: options.attempts ?? 3, initialDelayMs: 100, maxDelayMs: 1000 },
    deadLetter: async (letter) => void letters.push(letter),
    sleep: async (ms) => void delays.push(ms),
  });
  return { dispatcher, letters, delays };
}

describe('subscriber dispatch', () => {
  it('hands a typed, checked event to its handlers', async () => {
    const { dispatcher } = setup();
    const seen: string[] = [];
    dispatcher.on('user:created', (event) => void seen.push(event.data.email ?? '(forgotten)'));
    expect(await dispatcher.dispatch(envelope('e1'))).toMatchObject({ kind: 'handled', eventId: 'e1' });
    expect(seen).toEqual(['ann@example.com']);
  });

  it('delivers a redelivery again, unless asked to drop duplicates', async () => {
    for (const dedupe of [false, true]) {
      const { dispatcher } = setup({ dedupe });
      let calls = 0;
      dispatcher.on('user:created', () => void calls++);
      await dispatcher.dispatch(envelope('e1'));
      const second = await dispatcher.dispatch(envelope('e1'));
      expect(calls).toBe(dedupe ? 1 : 2);
      expect(second.kind).toBe(dedupe ? 'duplicate' : 'handled');
    }
  });

  it('retries with growing delays, then sends the event to the dead letters', async () => {
    const { dispatcher, letters, delays } = setup({ attempts: 3 });
    let calls = 0;
    dispatcher.on('user:created', () => {
      calls++;
      throw new Error('downstream is down');
    });
    expect(await dispatcher.dispatch(envelope('e1'), { topic: 't' })).toMatchObject({ kind: 'dead-lettered' });
    expect(calls).toBe(3);
    expect(delays).toHaveLength(2);
    expect(delays[1]!).toBeGreaterThan(delays[0]! * 0.99 - 1);
    expect(letters[0]).toMatchObject({ eventId: 'e1', eventType: 'user:created', attempts: 3, origin: { topic: 't' } });
    expect(letters[0]!.reason).toContain('downstream is down');
  });

  it('succeeds on a retry without a dead letter', async () => {
    const { dispatcher, letters } = setup();
    let calls = 0;
    dispatcher.on('user:created', () => {
      if (++calls < 2) throw new Error('flaky');
    });
    expect((await dispatcher.dispatch(envelope('e1'))).kind).toBe('handled');
    expect(letters).toEqual([]);
  });

  it('dead-letters what is not a valid event, keeping it as it arrived', async () => {
    const { dispatcher, letters } = setup();
    dispatcher.on('user:created', () => {});
    await dispatcher.dispatch('not json');
    await dispatcher.dispatch(envelope('e2', 'user:created', { userId: 'u1', name: 42 }));
    expect(letters.map((l) => l.raw)).toEqual(['not json', envelope('e2', 'user:created', { userId: 'u1', name: 42 })]);
  });

  it('ignores event types without handlers, and refuses unknown names', async () => {
    const { dispatcher } = setup();
    dispatcher.on('user:created', () => {});
    expect((await dispatcher.dispatch(envelope('e3', 'user:deleted', { userId: 'u1' }))).kind).toBe('ignored');
    expect(() => dispatcher.on('user:exploded' as never, () => {})).toThrow(/nine event names/);
  });

  it('reads an event published before versions existed as the version it knows', async () => {
    const { dispatcher } = setup();
    const seen: unknown[] = [];
    dispatcher.on('product:created', (event) => void seen.push([event.schemaVersion, event.data.taxRate, event.data.images]));
    const v1 = { productId: 'p1', name: 'Kettle', description: '', price: { amount: 2999, currency: 'EUR' }, sku: null, category: null };
    expect(await dispatcher.dispatch(envelope('e1', 'product:created', v1))).toMatchObject({ kind: 'handled' });
    expect(seen).toEqual([[currentSchemaVersion('product:created'), null, []]]);
  });

  it('dead-letters an event of a version newer than it knows, saying so, and goes on', async () => {
    const { dispatcher, letters } = setup();
    const seen: string[] = [];
    dispatcher.on('order:deleted', (event) => void seen.push(event.data.orderId));
    const newer = JSON.stringify({ ...JSON.parse(envelope('e1', 'order:deleted', { orderId: 'o1' })), schemaVersion: 2 });
    expect(await dispatcher.dispatch(newer)).toMatchObject({ kind: 'dead-lettered' });
    expect(letters[0]!.reason).toMatch(/order:deleted version 2 is newer than this release knows \(1\)/);
    expect(letters[0]!.raw).toBe(newer);
    expect(await dispatcher.dispatch(envelope('e2', 'order:deleted', { orderId: 'o2' }))).toMatchObject({ kind: 'handled' });
    expect(seen).toEqual(['o2']);
  });
});

describe('subscriber dispatch of sealed personal fields', () => {
  const key = randomBytes(32);
  const sealedData = sealFields('user:created', { userId: 'u1', name: 'Ann', email: 'ann@example.com' }, 'u1', createSecretKey(key));
  const sealed = envelope('s1', 'user:created', sealedData);
  const keysIn = (state: KeyState): KeyLookup => ({ lookup: async (subjects) => new Map(subjects.map((s) => [s, state])) });

  function seenBy(keys: KeyLookup | undefined) {
    const { dispatcher, letters } = setup({ keys, attempts: 2 });
    const seen: Array<{ data: unknown; forgotten?: true; withheld?: true }> = [];
    dispatcher.on('user:created', ({ data, forgotten, withheld }) => void seen.push({ data, forgotten, withheld }));
    return { dispatcher, letters, seen };
  }

  it('opens them with the key store given', async () => {
    expect(JSON.stringify(sealedData)).not.toContain('ann@example.com');
    const { dispatcher, seen } = seenBy(keysIn({ state: 'active', key }));
    expect((await dispatcher.dispatch(sealed)).kind).toBe('handled');
    expect(seen).toEqual([{ data: { userId: 'u1', name: 'Ann', email: 'ann@example.com' } }]);
  });

  it('reads them as null, marked forgotten, once the key is destroyed', async () => {
    const { dispatcher, seen } = seenBy(keysIn({ state: 'forgotten', forgottenAt: '2026-11-24T00:00:00.000Z' }));
    expect((await dispatcher.dispatch(sealed)).kind).toBe('handled');
    expect(seen).toEqual([{ data: { userId: 'u1', name: null, email: null }, forgotten: true }]);
  });

  it('reads them as null, marked withheld and not forgotten, without keys', async () => {
    const { dispatcher, seen } = seenBy(undefined);
    expect((await dispatcher.dispatch(sealed)).kind).toBe('handled');
    expect(seen).toEqual([{ data: { userId: 'u1', name: null, email: null }, withheld: true }]);
  });

  it('dead-letters, never calls forgotten, what a store without the key or a wrong key cannot open', async () => {
    for (const keys of [keysIn({ state: 'unknown' }), keysIn({ state: 'active', key: randomBytes(32) })]) {
      const { dispatcher, seen, letters } = seenBy(keys);
      expect((await dispatcher.dispatch(sealed)).kind).toBe('dead-lettered');
      expect(seen).toEqual([]);
      expect(letters[0]!.raw).toBe(sealed);
      expect(letters[0]!.reason).toMatch(/no key for u1|did not open/);
    }
  });

  it('retries a key store that fails, then handles', async () => {
    let calls = 0;
    const flaky: KeyLookup = {
      lookup: async (subjects) => {
        if (++calls === 1) throw new Error('key store unreachable');
        return new Map(subjects.map((s) => [s, { state: 'active', key } as KeyState]));
      },
    };
    const { dispatcher, seen } = seenBy(flaky);
    expect((await dispatcher.dispatch(sealed)).kind).toBe('handled');
    expect(seen).toHaveLength(1);
  });
});
