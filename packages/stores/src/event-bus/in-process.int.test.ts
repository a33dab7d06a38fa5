// The in-process bus: the contract, and what is its own (port.ts, in-process.ts): publish waits
// for every group present, a group that joins later starts at the next publish, and a group ends
// with its last member.
import { describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import { until } from '@eventide/testing/wait.ts';
import { envelopeOf, eventBusContract } from './contract.ts';
import { inProcessBus } from './in-process.ts';
import type { DeadLetter } from './port.ts';

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

eventBusContract('in-process', async () => {
  const bus = inProcessBus({ log });
  return { bus, dispose: () => bus.close() };
});

describe('the in-process bus', () => {
  it('resolves a publish only once every group present has handled it', async () => {
    const bus = inProcessBus({ log });
    let finish = () => {};
    const handled = new Promise<void>((resolve) => (finish = resolve));
    await bus.subscribe({ group: 'slow', names: ['user:created'], deliver: () => handled });
    let published = false;
    const publishing = bus.publish([envelopeOf('user:created', 'u1')]).then(() => (published = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(published, 'the group has not handled it yet').toBe(false);
    finish();
    await publishing;
    expect(published).toBe(true);
    await bus.close();
  });

  it('starts a group that joins later at the next publish', async () => {
    const bus = inProcessBus({ log });
    await bus.publish([envelopeOf('user:created', 'before')]);
    const got: string[] = [];
    await bus.subscribe({ group: 'late', names: ['user:created'], deliver: async ({ raw }) => void got.push(JSON.parse(raw).streamId) });
    await bus.publish([envelopeOf('user:created', 'after')]);
    expect(got).toEqual(['user-after']);
    await bus.close();
  });

  it('lets a publish go on when the last member of a group leaves, and when the bus closes', async () => {
    const bus = inProcessBus({ log });
    const stuck = await bus.subscribe({
      group: 'stuck',
      names: ['user:created'],
      deliver: () => Promise.reject(new Error('never handles')),
    });
    const first = bus.publish([envelopeOf('user:created', 'a')]);
    await stuck.stop();
    await first;
    await bus.subscribe({ group: 'stuck', names: ['user:created'], deliver: () => Promise.reject(new Error('never handles')) });
    const second = bus.publish([envelopeOf('user:created', 'b')]);
    await bus.close();
    await second;
    await expect(bus.publish([envelopeOf('user:created', 'c')])).rejects.toThrow(/closed/);
  });

  it('hands dead letters to onDeadLetter', async () => {
    const letters: DeadLetter[] = [];
    const bus = inProcessBus({ log, onDeadLetter: (letter) => void letters.push(letter) });
    const subscription = await bus.subscribe({ group: 'dl', names: ['user:created'], deliver: async () => {} });
    await subscription.deadLetter({ raw: '{}', reason: 'kept failing', attempts: 5, origin: { position: '1' } });
    await until(() => letters.length === 1, 'the dead letter');
    expect(letters[0]).toMatchObject({ reason: 'kept failing', attempts: 5 });
    await bus.close();
  });
});
