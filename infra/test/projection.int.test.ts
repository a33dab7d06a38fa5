// Projections: given events, then the read model; and the property that duplicates and crashes
// between the data write and the checkpoint leave the same read model as a clean replay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { COLLECTIONS, type ReadStore } from '@eventide/stores/read-store/port.ts';
import { openSqliteReadStore } from '@eventide/stores/read-store/sqlite.ts';
import { applyBatch, CHECKPOINT } from '@eventide/projector/src/projector.ts';
import { entityId, historyOf, type Step } from './history.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-projection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let stores = 0;
function freshStore(): ReadStore {
  return openSqliteReadStore(join(dir, `read-${stores++}.db`));
}

async function snapshot(store: ReadStore): Promise<unknown> {
  const writer = store.writer(await store.activeGeneration());
  const all: Record<string, unknown> = {};
  for (const collection of COLLECTIONS) {
    const kind = collection === 'users' ? 'user' : collection === 'products' ? 'product' : 'order';
    const ids = Array.from({ length: 4 }, (_, i) => entityId(kind, i));
    all[collection] = [...(await writer.getMany(collection, ids)).values()].sort((a, b) => a.id.localeCompare(b.id));
  }
  return all;
}

async function cleanReplay(history: RecordedEvent[]): Promise<unknown> {
  const store = freshStore();
  if (history.length > 0) await applyBatch(store.writer(await store.activeGeneration()), history);
  const result = await snapshot(store);
  await store.close();
  return result;
}

describe('projection', () => {
  it('given a user created, changed and deleted, keeps a tombstone at the last version, with nothing personal', async () => {
    const history = historyOf([
      { kind: 'user', entity: 0, op: 'create', seed: 1 },
      { kind: 'user', entity: 0, op: 'change', seed: 2 },
      { kind: 'user', entity: 0, op: 'delete', seed: 3 },
    ]);
    const store = freshStore();
    await applyBatch(store.writer(1), history);
    const doc = await store.get('users', entityId('user', 0));
    expect(doc).toMatchObject({ version: 2, deleted: true, seq: history[0]!.position });
    expect(doc!.fields).toMatchObject({ status: 'deleted', name: null, email: null, createdAt: history[0]!.time });
    expect(await store.writer(1).checkpoint(CHECKPOINT)).toBe(history[2]!.position);
    expect((await store.list('users', { limit: 10, offset: 0 })).items).toEqual([]);
    await store.close();
  });

  it('given an order placed, shows it under its user and status', async () => {
    const history = historyOf([
      { kind: 'order', entity: 0, op: 'create', seed: 1 },
      { kind: 'order', entity: 0, op: 'change', seed: 1 }, // placed
    ]);
    const store = freshStore();
    await applyBatch(store.writer(1), history);
    const listed = await store.list('orders', { limit: 10, offset: 0, filter: { userId: entityId('user', 1), status: 'placed' } });
    expect(listed.items.map((d) => d.id)).toEqual([entityId('order', 0)]);
    await store.close();
  });

  it('ignores events that have no read model, but moves the checkpoint past them', async () => {
    const store = freshStore();
    const claim: RecordedEvent = {
      id: crypto.randomUUID(),
      type: 'email:claimed',
      streamId: 'email-x',
      revision: 0,
      position: 5,
      time: new Date().toISOString(),
      data: { userId: 'u' },
      metadata: { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } },
    };
    await applyBatch(store.writer(1), [claim]);
    expect(await store.writer(1).checkpoint(CHECKPOINT)).toBe(5);
    await store.close();
  });

  const step = fc.record({
    kind: fc.constantFrom('user', 'product', 'order') as fc.Arbitrary<Step['kind']>,
    entity: fc.integer({ min: 0, max: 3 }),
    op: fc.constantFrom('create', 'create', 'change', 'change', 'change', 'delete') as fc.Arbitrary<Step['op']>,
    seed: fc.integer({ min: 0, max: 1000 }),
  });
  const chaos = fc.record({ batch: fc.integer({ min: 1, max: 6 }), duplicate: fc.boolean(), crash: fc.boolean(), pick: fc.nat() });

  it('equals a clean replay whatever the duplicates and the crashes between data and checkpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.infiniteStream(chaos), async (steps, turns) => {
        const history = historyOf(steps);
        const store = freshStore();
        const turn = turns[Symbol.iterator]();
        try {
          let writer = store.writer(await store.activeGeneration());
          let checkpoint = 0;
          for (let guard = 0; checkpoint < (history.at(-1)?.position ?? 0); guard++) {
            if (guard > 10_000) throw new Error('no progress');
            const t = turn.next().value!;
            const pending = history.filter((e) => e.position > checkpoint);
            const batch = pending.slice(0, t.batch);
            if (t.duplicate && checkpoint > 0) {
              // Redeliver an event already applied, somewhere in the batch.
              const old = history[t.pick % history.indexOf(pending[0]!)]!;
              batch.splice(t.pick % (batch.length + 1), 0, old);
            }
            if (t.crash) {
              // The documents are written, then the process dies before the checkpoint moves.
              const crashing = { ...writer, write: (writes: never[]) => writer.write(writes, { name: CHECKPOINT, position: checkpoint }) };
              await applyBatch(crashing as never, batch);
              writer = store.writer(await store.activeGeneration()); // restart
            } else {
              await applyBatch(writer, batch);
            }
            checkpoint = await writer.checkpoint(CHECKPOINT);
          }
          expect(await snapshot(store)).toEqual(await cleanReplay(history));
        } finally {
          await store.close();
        }
      }),
      { numRuns: 60, seed: 20261120 },
    );
  });
});
