import { describe, expect, it } from 'vitest';
import { Dispatcher, type DeadLetter } from './dispatch.ts';

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

function setup(options: { dedupe?: boolean; attempts?: number } = {}) {
  const letters: DeadLetter[] = [];
  const delays: number[] = [];
  const dispatcher = new Dispatcher({
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
});
