// The contract every EventStore adapter passes. Each test writes to streams of its own, so the
// suite also runs against a shared server that holds other data.
import { describe, expect, it } from 'vitest';
import { derivedId, newId } from '@eventide/kernel/ids.ts';
import { WrongExpectedRevisionError } from './port.ts';
import { storesOf, within, type EventStoreHarness } from './contract-harness.ts';
import { until } from '@eventide/testing/wait.ts';
import type { NewEvent, RecordedEvent } from '@eventide/kernel/events/recorded.ts';

const metadata = { correlationId: 'corr-1', causationId: 'cause-1', actor: { type: 'anonymous' as const } };

export function event(type = 'test:happened', data: NewEvent['data'] = { n: 1 }): NewEvent {
  return { id: newId(), type, data, metadata };
}

export function stream(): string {
  return `contract-${newId()}`;
}

async function take(iterable: AsyncIterable<RecordedEvent>, count: number, accept: (e: RecordedEvent) => boolean) {
  const taken: RecordedEvent[] = [];
  if (count === 0) return taken;
  for await (const e of iterable) {
    if (!accept(e)) continue;
    taken.push(e);
    if (taken.length === count) break;
  }
  return taken;
}

export function eventStoreContract(name: string, open: () => Promise<EventStoreHarness>): void {
  describe(`EventStore contract: ${name}`, () => {
    const withStore = storesOf(open);

    it('appends to a new stream and reads it back in order, with metadata', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const first = await store.append(s, [event('a', { n: 1 }), event('b', { n: 2 })], { expectedRevision: 'no_stream' });
        expect(first.nextRevision).toBe(1);
        const events = await store.readStream(s);
        expect(events.map((e) => [e.type, e.revision, e.data])).toEqual([
          ['a', 0, { n: 1 }],
          ['b', 1, { n: 2 }],
        ]);
        expect(events[1]!.position).toBe(first.position);
        expect(events[1]!.time).toBe(first.time);
        expect(events[0]!.position).toBeLessThan(events[1]!.position);
        expect(events[0]!.metadata).toEqual(metadata);
        expect(events[0]!.streamId).toBe(s);
        expect(Number.isNaN(Date.parse(events[0]!.time))).toBe(false);
      }));

    it('reads a stream that does not exist as empty', () =>
      withStore(async ({ store }) => {
        expect(await store.readStream(stream())).toEqual([]);
      }));

    it('reads a range of a stream by revision', () =>
      withStore(async ({ store }) => {
        const s = stream();
        await store.append(
          s,
          [0, 1, 2, 3, 4].map((n) => event('e', { n })),
          { expectedRevision: 'no_stream' },
        );
        const revisions = async (options: { fromRevision?: number; toRevision?: number }) =>
          (await store.readStream(s, options)).map((e) => e.revision);
        expect(await revisions({ fromRevision: 3 })).toEqual([3, 4]);
        expect(await revisions({ toRevision: 1 })).toEqual([0, 1]);
        expect(await revisions({ fromRevision: 1, toRevision: 3 })).toEqual([1, 2, 3]);
        expect(await revisions({ fromRevision: 5 })).toEqual([]);
        expect(await revisions({ fromRevision: 3, toRevision: 2 })).toEqual([]);
        expect(await store.readStream(stream(), { fromRevision: 2 })).toEqual([]);
      }));

    it('finds the events a command caused in a stream, by its id', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const other = stream();
        const repeatable = derivedId('contract', newId());
        const random = newId();
        const caused = (causationId: string, type: string) => ({ ...event(type), metadata: { ...metadata, causationId } });
        await store.append(s, [caused(random, 'r0')], { expectedRevision: 'no_stream' });
        await store.append(s, [caused(repeatable, 'a0'), caused(repeatable, 'a1')], { expectedRevision: 0 });
        await store.append(other, [caused(repeatable, 'elsewhere')], { expectedRevision: 'no_stream' });
        await store.append(s, [event('later')], { expectedRevision: 2 });
        expect((await store.readCausedBy(s, repeatable)).map((e) => [e.type, e.revision])).toEqual([
          ['a0', 1],
          ['a1', 2],
        ]);
        expect((await store.readCausedBy(s, random)).map((e) => e.type)).toEqual(['r0']);
        expect(await store.readCausedBy(s, derivedId('contract', newId()))).toEqual([]);
        expect(await store.readCausedBy(stream(), repeatable)).toEqual([]);
      }));

    it('keeps snapshots by version and finds the newest at or before a revision', () =>
      withStore(async ({ store }) => {
        const s = stream();
        await store.append(
          s,
          [0, 1, 2, 3, 4, 5].map((n) => event('e', { n })),
          { expectedRevision: 'no_stream' },
        );
        const events = await store.readStream(s);
        const snapshotAt = (revision: number, version: string) => ({
          version,
          revision,
          position: events[revision]!.position,
          time: events[revision]!.time,
          state: { upTo: revision, list: [1, 'two', null], nested: { ok: true } },
        });
        expect(await store.readSnapshot(s, { version: 'v1' })).toBeUndefined();
        await store.saveSnapshot(s, snapshotAt(1, 'v1'));
        await store.saveSnapshot(s, snapshotAt(4, 'v1'));
        expect(await store.readSnapshot(s, { version: 'v1' })).toEqual(snapshotAt(4, 'v1'));
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: 3 })).toEqual(snapshotAt(1, 'v1'));
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: 0 })).toBeUndefined();
        // By the position or the time of the snapshot's last event, as an as-of read asks.
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: { position: events[3]!.position } })).toEqual(snapshotAt(1, 'v1'));
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: { position: events[4]!.position } })).toEqual(snapshotAt(4, 'v1'));
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: { position: events[0]!.position } })).toBeUndefined();
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: { time: events[5]!.time } })).toEqual(snapshotAt(4, 'v1'));
        expect(await store.readSnapshot(s, { version: 'v1', atOrBefore: { time: '2000-01-01T00:00:00.000Z' } })).toBeUndefined();
        expect(await store.readSnapshot(s, { version: 'v2' })).toBeUndefined();
        await store.saveSnapshot(s, snapshotAt(5, 'v2'));
        expect(await store.readSnapshot(s, { version: 'v2' })).toEqual(snapshotAt(5, 'v2'));
        expect(await store.readSnapshot(stream(), { version: 'v1' })).toBeUndefined();
      }));

    it('refuses a snapshot of an event that is not in the stream, and keeps snapshots out of the log', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const appended = await store.append(s, [event()], { expectedRevision: 'no_stream' });
        const valid = { version: 'v1', revision: 0, position: appended.position, time: appended.time, state: {} };
        await expect(store.saveSnapshot(s, { ...valid, revision: 1 })).rejects.toThrow(/no such event/);
        await expect(store.saveSnapshot(stream(), valid)).rejects.toThrow(/no such event/);
        expect(await store.readSnapshot(s, { version: 'v1' })).toBeUndefined();
        await store.saveSnapshot(s, valid);
        const log = await store.readAll({ after: appended.position - 1, limit: 1000 });
        expect(log.map((e) => e.type)).not.toContain('snapshot');
        expect(await store.readStream(s)).toHaveLength(1);
      }));

    it('checks expected revision "no stream"', () =>
      withStore(async ({ store }) => {
        const s = stream();
        await store.append(s, [event()], { expectedRevision: 'no_stream' });
        const error = await store.append(s, [event()], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect((error as WrongExpectedRevisionError).actual).toBe(0);
      }));

    it('checks expected revision "stream exists"', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const missing = await store.append(s, [event()], { expectedRevision: 'stream_exists' }).catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(WrongExpectedRevisionError);
        expect((missing as WrongExpectedRevisionError).actual).toBe(-1);
        await store.append(s, [event()], { expectedRevision: 'any' });
        const ok = await store.append(s, [event()], { expectedRevision: 'stream_exists' });
        expect(ok.nextRevision).toBe(1);
      }));

    it('checks an exact expected revision', () =>
      withStore(async ({ store }) => {
        const s = stream();
        await store.append(s, [event(), event()], { expectedRevision: 'no_stream' });
        const ok = await store.append(s, [event()], { expectedRevision: 1 });
        expect(ok.nextRevision).toBe(2);
        const stale = await store.append(s, [event()], { expectedRevision: 1 }).catch((e: unknown) => e);
        expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
        expect((stale as WrongExpectedRevisionError).actual).toBe(2);
        const ahead = await store.append(stream(), [event()], { expectedRevision: 0 }).catch((e: unknown) => e);
        expect(ahead).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(s)).toHaveLength(3);
      }));

    it('appends with "any" whatever the stream holds', () =>
      withStore(async ({ store }) => {
        const s = stream();
        await store.append(s, [event()], { expectedRevision: 'any' });
        const second = await store.append(s, [event()], { expectedRevision: 'any' });
        expect(second.nextRevision).toBe(1);
      }));

    it('gives exactly one success to 20 concurrent appends that expect the same revision', () =>
      withStore(async ({ store }) => {
        const s = stream();
        await store.append(s, [event()], { expectedRevision: 'no_stream' });
        const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => store.append(s, [event()], { expectedRevision: 0 })));
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(19);
        for (const o of lost) expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(s)).toHaveLength(2);
      }));

    it('gives exactly one success to 20 concurrent appends that expect no stream', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const outcomes = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.append(s, [event()], { expectedRevision: 'no_stream' })),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect(await store.readStream(s)).toHaveLength(1);
      }));

    it('appends to several streams in order, each checked as a single append', () =>
      withStore(async ({ store }) => {
        const [a, b] = [stream(), stream()];
        await store.append(b, [event()], { expectedRevision: 'no_stream' });
        const results = await store.appendInOrder([
          { streamId: a, events: [event('first')], expectedRevision: 'no_stream' },
          { streamId: b, events: [event('second'), event('third')], expectedRevision: 0 },
        ]);
        expect(results.map((r) => r.nextRevision)).toEqual([0, 2]);
        expect(results[1]!.position).toBeGreaterThan(results[0]!.position);
        expect((await store.readStream(a)).map((e) => e.type)).toEqual(['first']);
        expect((await store.readStream(b)).map((e) => e.type)).toEqual(['test:happened', 'second', 'third']);
      }));

    it('writes no append after one that fails, and none at all where the store is all-or-none', () =>
      withStore(async ({ store, allOrNone }) => {
        const [a, b, c] = [stream(), stream(), stream()];
        await store.append(b, [event()], { expectedRevision: 'no_stream' });
        const error = await store
          .appendInOrder([
            { streamId: a, events: [event()], expectedRevision: 'no_stream' },
            { streamId: b, events: [event()], expectedRevision: 'no_stream' },
            { streamId: c, events: [event()], expectedRevision: 'no_stream' },
          ])
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect((error as WrongExpectedRevisionError).streamId).toBe(b);
        expect(await store.readStream(b)).toHaveLength(1);
        expect(await store.readStream(c)).toEqual([]);
        if (allOrNone) expect(await store.readStream(a)).toEqual([]);
      }));

    it('gives one of two racing appendInOrder calls on the same stream its writes, and the other none after it', () =>
      withStore(async ({ store }) => {
        const [claim, one, two] = [stream(), stream(), stream()];
        const race = (mine: string) =>
          store.appendInOrder([
            { streamId: claim, events: [event()], expectedRevision: 'no_stream' },
            { streamId: mine, events: [event()], expectedRevision: 'no_stream' },
          ]);
        const outcomes = await Promise.allSettled([race(one), race(two)]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect(await store.readStream(claim)).toHaveLength(1);
        const written = [(await store.readStream(one)).length, (await store.readStream(two)).length];
        expect(written.sort()).toEqual([0, 1]);
      }));

    it('writes nothing new when an append is retried with the same event ids', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const batch = [event(), event()];
        const first = await store.append(s, batch, { expectedRevision: 'no_stream' });
        const retry = await store.append(s, batch, { expectedRevision: 'no_stream' });
        expect(retry.nextRevision).toBe(first.nextRevision);
        const retryAny = await store.append(s, batch, { expectedRevision: 'any' });
        expect(retryAny.nextRevision).toBe(first.nextRevision);
        expect(await store.readStream(s)).toHaveLength(2);
        const all = await store.readAll({ after: first.position, limit: 1000 });
        expect(all.filter((e) => e.streamId === s)).toEqual([]);
      }));

    it('reads the global log in commit order after a position, in pages', () =>
      withStore(async ({ store }) => {
        const s1 = stream();
        const s2 = stream();
        const start = await store.append(s1, [event('mark')], { expectedRevision: 'no_stream' });
        await store.append(s2, [event('x1')], { expectedRevision: 'no_stream' });
        await store.append(s1, [event('x2')], { expectedRevision: 0 });
        await store.append(s2, [event('x3')], { expectedRevision: 0 });
        const mine = (events: RecordedEvent[]) => events.filter((e) => e.streamId === s1 || e.streamId === s2);
        const all = mine(await store.readAll({ after: start.position, limit: 1000 }));
        expect(all.map((e) => e.type)).toEqual(['x1', 'x2', 'x3']);
        const positions = all.map((e) => e.position);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
        const firstPage = await store.readAll({ after: start.position, limit: 1 });
        expect(firstPage).toHaveLength(1);
        expect(firstPage[0]!.position).toBeGreaterThan(start.position);
      }));

    it('says where the head of the log is', () =>
      withStore(async ({ store }) => {
        const appended = await store.append(stream(), [event(), event()], { expectedRevision: 'no_stream' });
        expect(await store.head()).toBeGreaterThanOrEqual(appended.position);
      }));

    it('subscribes: catches up, then delivers live appends, in order', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const before = await store.append(s, [event('e0'), event('e1')], { expectedRevision: 'no_stream' });
        const controller = new AbortController();
        const first = await store.readStream(s);
        const received = take(
          store.subscribeToAll({ after: first[0]!.position - 1, signal: controller.signal }),
          4,
          (e) => e.streamId === s,
        );
        await store.append(s, [event('e2')], { expectedRevision: before.nextRevision });
        await store.append(s, [event('e3')], { expectedRevision: before.nextRevision + 1 });
        const events = await within(received);
        controller.abort();
        expect(events.map((e) => e.type)).toEqual(['e0', 'e1', 'e2', 'e3']);
      }));

    it('says it has events before it hands the first of them on', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const controller = new AbortController();
        let said = 0;
        const saidWhenHandedOn: number[] = [];
        const head = await store.head();
        const received = (async () => {
          for await (const e of store.subscribeToAll({ after: head, signal: controller.signal, onEvents: () => said++ })) {
            if (e.streamId !== s) continue;
            saidWhenHandedOn.push(said);
            if (saidWhenHandedOn.length === 2) return;
          }
        })();
        const appended = await store.append(s, [event('e0')], { expectedRevision: 'no_stream' });
        await until(() => saidWhenHandedOn.length === 1, 'the first live event');
        await store.append(s, [event('e1')], { expectedRevision: appended.nextRevision });
        await within(received);
        controller.abort();
        // Live, each append is read on its own: said before each is handed on.
        expect(saidWhenHandedOn[0]).toBeGreaterThanOrEqual(1);
        expect(saidWhenHandedOn[1]).toBeGreaterThan(saidWhenHandedOn[0]!);
      }));

    it('resumes a subscription stopped after event k with event k+1', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const types = Array.from({ length: 10 }, (_, i) => `e${i}`);
        for (const [i, type] of types.entries()) {
          await store.append(s, [event(type)], { expectedRevision: i === 0 ? 'no_stream' : i - 1 });
        }
        const [firstEvent] = await store.readStream(s);
        const start = firstEvent!.position - 1;
        const k = 4;
        const firstRun = await within(take(store.subscribeToAll({ after: start }), k + 1, (e) => e.streamId === s));
        expect(firstRun.map((e) => e.type)).toEqual(types.slice(0, k + 1));
        const checkpoint = firstRun[k]!.position;
        const secondRun = await within(take(store.subscribeToAll({ after: checkpoint }), types.length - k - 1, (e) => e.streamId === s));
        expect(secondRun.map((e) => e.type)).toEqual(types.slice(k + 1));
      }));

    it('subscribes from a position it gave, including the event there', () =>
      withStore(async ({ store }) => {
        const s = stream();
        for (const [i, type] of ['a', 'b', 'c'].entries()) {
          await store.append(s, [event(type)], { expectedRevision: i === 0 ? 'no_stream' : i - 1 });
        }
        const [, second] = await store.readStream(s);
        const fromThere = await within(take(store.subscribeToAll({ from: second!.position }), 2, (e) => e.streamId === s));
        expect(fromThere.map((e) => e.type)).toEqual(['b', 'c']);
      }));

    it('ends a subscription without error when its signal aborts', () =>
      withStore(async ({ store }) => {
        const controller = new AbortController();
        const iterator = store.subscribeToAll({ after: Number.MAX_SAFE_INTEGER - 1, signal: controller.signal });
        const done = (async () => {
          for await (const _ of iterator) void _;
          return 'ended';
        })();
        controller.abort();
        expect(await within(done)).toBe('ended');
      }));

    it('keeps every acknowledged append across a reopen', async () => {
      const harness = await open();
      if (!harness.reopen) {
        await harness.dispose();
        return;
      }
      const s = stream();
      const acknowledged = await Promise.all(
        Array.from({ length: 50 }, (_, i) => harness.store.append(`${s}-${i}`, [event()], { expectedRevision: 'no_stream' })),
      );
      const reopened = await harness.reopen();
      try {
        for (let i = 0; i < 50; i++) {
          const events = await reopened.readStream(`${s}-${i}`);
          expect(events.map((e) => e.position)).toEqual([acknowledged[i]!.position]);
        }
      } finally {
        await harness.dispose();
      }
    });
  });
}
