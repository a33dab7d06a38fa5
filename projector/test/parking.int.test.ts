// Issue 59: one event a follower cannot handle parks alone. An event written by a newer release is
// parked, its entity's later events wait behind it, every other entity is projected, and the
// checkpoint goes on; the release that knows it projects it in order when it starts; an operator
// can skip it. An event whose handling keeps failing is parked after its retries, unless the store
// itself is failing, when nothing is parked and the follower backs off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import { versionedEventStore } from '@eventide/stores/event-store/versioned.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { openSqliteReadStore, type SqliteReadStore } from '@eventide/stores/read-store/sqlite.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import { UPCASTERS, type Upcasters } from '@eventide/kernel/events/versions.ts';
import type { NewEvent, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { until } from '@eventide/testing/wait.ts';
import { startProjector, type Projector } from '../src/projector.ts';
import { ParkingLot, type Handling } from '@eventide/runtime/followers/parking.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';

const log = createLogger({ level: 'silent' });
/** A release that knows the next version of product:updated (with nothing new in it), as the next one might. */
const NEXT_RELEASE: Upcasters = { ...UPCASTERS, 'product:updated': [...UPCASTERS['product:updated'], (data) => data] };
const KNOWN = UPCASTERS['product:updated'].length + 1;
const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'system' as const, name: 'test' } };
const event = (type: string, data: Record<string, unknown>): NewEvent => ({ id: newId(), type, data: data as never, metadata });
const price = { amount: 100, currency: 'EUR' };
const created = (productId: string) => event('product:created', { productId, ...PRODUCT.complete({ name: 'Kettle', price }) });

let dir: string;
let events: EventStore;
let readStore: SqliteReadStore;
let parked: ParkedEvents;
let running: Projector | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-parking-'));
  events = openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: 'NORMAL' });
  readStore = openSqliteReadStore(join(dir, 'read.db'));
  parked = openSqliteParkedEvents(join(dir, 'read.db'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await parked.close();
  await readStore.close();
  await events.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A written by the next release (its updates a version this one does not know), B by either. */
async function writeAsNextRelease(): Promise<{ a: string; b: string; head: number }> {
  const next = versionedEventStore(events, NEXT_RELEASE);
  const [a, b] = [newId(), newId()];
  await next.append(`product-${a}`, [created(a)], { expectedRevision: 'no_stream' });
  await next.append(`product-${a}`, [event('product:updated', { productId: a, changes: { name: 'Kettle 2' } })], { expectedRevision: 0 });
  await next.append(`product-${b}`, [created(b)], { expectedRevision: 'no_stream' });
  await next.append(`product-${a}`, [event('product:updated', { productId: a, changes: { name: 'Kettle 3' } })], { expectedRevision: 1 });
  const last = await next.append(`product-${b}`, [event('product:deleted', { productId: b })], { expectedRevision: 0 });
  return { a, b, head: last.position };
}

function project(upcasters: Upcasters = UPCASTERS): Projector {
  running = startProjector({ eventStore: versionedEventStore(events, upcasters), readStore, parked, log });
  return running;
}

describe('the projector meets an event of a version it does not know', () => {
  it('parks it, holds its entity behind it, projects the others, and moves its checkpoint past them', async () => {
    const { a, b, head } = await writeAsNextRelease();
    const projector = project();
    await until(() => projector.position() === head, 'the projector at the head of the log');
    expect(await readStore.get('products', a)).toMatchObject({ version: 0, fields: { name: 'Kettle' } });
    expect(await readStore.get('products', b)).toMatchObject({ version: 1, deleted: true });
    const lot = await parked.list({ lot: 'projector@g1', limit: 10 });
    expect(lot).toMatchObject([
      {
        streamId: `product-${a}`,
        revision: 1,
        attempts: 1,
        reason: expect.stringMatching(new RegExp(`product:updated version ${KNOWN + 1} is newer than this release knows \\(${KNOWN}\\)`)),
      },
      { streamId: `product-${a}`, revision: 2, behind: lot[0]!.position, attempts: 0, reason: expect.stringMatching(/waits behind/) },
    ]);
    expect((await parked.counts()).get('projector@g1')).toMatchObject({ parked: 1, held: 1 });
  });

  it('projects what it parked, in order, once a release that knows it starts', async () => {
    const { a, head } = await writeAsNextRelease();
    const older = project();
    await until(() => older.position() === head, 'the older projector at the head');
    await older.stop();
    const next = project(NEXT_RELEASE);
    await until(async () => (await readStore.get('products', a))?.version === 2, 'the parked events projected by the next release');
    expect((await readStore.get('products', a))?.fields).toMatchObject({ name: 'Kettle 3' });
    expect(await parked.counts()).toEqual(new Map());
    expect(next.position()).toBe(head);
  });

  it('skips the first event of a stream as an operator asks, and the next waits in its place when it cannot be read either', async () => {
    const { a, head } = await writeAsNextRelease();
    const projector = project();
    await until(() => projector.position() === head, 'the projector at the head');
    const [first, second] = await parked.ofStream('projector@g1', `product-${a}`);
    await parked.request('projector@g1', first!.position, { action: 'skip', by: 'ops', at: new Date().toISOString(), reason: 'a test' });
    await until(async () => (await parked.get('projector@g1', first!.position)) === undefined, 'the skip to be done');
    // Skipped: its version passed, nothing else changed.
    expect(await readStore.get('products', a)).toMatchObject({ version: 1, fields: { name: 'Kettle', version: 1 } });
    expect(await parked.ofStream('projector@g1', `product-${a}`)).toMatchObject([
      { position: second!.position, attempts: 1, reason: expect.stringMatching(/newer than this release knows/) },
    ]);
    expect((await parked.get('projector@g1', second!.position))?.behind).toBeUndefined();
  });
});

describe('a handler that fails', () => {
  const recorded = (position: number, streamId: string): RecordedEvent => ({
    id: `e${position}`,
    type: 'product:updated',
    streamId,
    revision: position,
    position,
    time: new Date().toISOString(),
    data: {},
    metadata,
  });

  it('parks the event it keeps failing on after its retries, holds its stream, and handles the others', async () => {
    const lot = await ParkingLot.open('publisher', parked, log);
    const handled: number[] = [];
    const handling: Handling = {
      async handle(events) {
        if (events.some((e) => e.position === 2)) throw new Error('this payload breaks the handler');
        handled.push(...events.map((e) => e.position));
      },
      probe: async () => 'fine',
      read: async () => undefined,
    };
    await lot.handleBatch([recorded(1, 'order-x'), recorded(2, 'order-y'), recorded(3, 'order-z'), recorded(4, 'order-y')], handling);
    expect(handled).toEqual([1, 3]);
    expect(await parked.list({ lot: 'publisher', limit: 10 })).toMatchObject([
      { position: 2, attempts: 3, reason: 'this payload breaks the handler' },
      { position: 4, behind: 2, attempts: 0 },
    ]);
  });

  it('parks nothing when the store itself fails: the batch fails whole, for the follower to back off', async () => {
    const lot = await ParkingLot.open('publisher', parked, log);
    const handling: Handling = {
      handle: async () => {
        throw new Error('connection refused');
      },
      probe: async () => {
        throw new Error('connection refused');
      },
      read: async () => undefined,
    };
    await expect(lot.handleBatch([recorded(1, 'order-x'), recorded(2, 'order-y')], handling)).rejects.toThrow(/connection refused/);
    expect(await parked.counts()).toEqual(new Map());
  });
});
