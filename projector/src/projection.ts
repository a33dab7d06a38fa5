// Turns events into read-model documents. A document is the entity's state, folded by the
// same evolve the write side uses (packages/kernel/src/models), so a read answers exactly what the write answered. An event applies
// only on the version just before it: replays and duplicates change nothing.
import { isEventName, type Model } from '@eventide/kernel/events/catalogue.ts';
import type { RecordedEvent, JsonValue } from '@eventide/kernel/events/recorded.ts';
import type { Collection, DocumentWrite, ReadDocument } from '@eventide/stores/read-store/port.ts';
import type { DomainEvent, EntityModel, Recorded } from '@eventide/kernel/models/model.ts';
import { orderModel } from '@eventide/kernel/models/order/state.ts';
import { productModel } from '@eventide/kernel/models/product/state.ts';
import { userModel } from '@eventide/kernel/models/user/state.ts';

interface Projection {
  collection: Collection;
  model: EntityModel<{ status: string }, DomainEvent>;
  idOf: (data: Record<string, unknown>) => string;
}

const PROJECTIONS: Record<Model, Projection> = {
  user: { collection: 'users', model: userModel as never, idOf: (d) => String(d.userId) },
  product: { collection: 'products', model: productModel as never, idOf: (d) => String(d.productId) },
  order: { collection: 'orders', model: orderModel as never, idOf: (d) => String(d.orderId) },
};

/** Which document an event belongs to, or undefined for events that have no read model. */
export function targetOf(event: RecordedEvent): { collection: Collection; id: string; projection: Projection } | undefined {
  if (!isEventName(event.type)) return undefined;
  const projection = PROJECTIONS[event.type.split(':')[0] as Model];
  return { collection: projection.collection, id: projection.idOf(event.data as Record<string, unknown>), projection };
}

export interface BatchOutcome {
  writes: DocumentWrite[];
  applied: number;
  /** Events already in the read model (replays). */
  skipped: number;
  /** Events that arrived before the one they follow: a read model that lost data (rebuild it). */
  gaps: RecordedEvent[];
}

/**
 * Applies a batch of events, in order, on top of the stored documents, and returns one write per
 * touched document, each expecting the version it had before the batch.
 */
export function projectBatch(
  events: RecordedEvent[],
  stored: (collection: Collection, id: string) => ReadDocument | undefined,
): BatchOutcome {
  const working = new Map<string, { collection: Collection; doc: ReadDocument; expectedVersion: number | null }>();
  const outcome: BatchOutcome = { writes: [], applied: 0, skipped: 0, gaps: [] };
  for (const event of events) {
    const target = targetOf(event);
    if (!target) continue;
    const key = `${target.collection}/${target.id}`;
    const before = working.get(key)?.doc ?? stored(target.collection, target.id);
    const currentVersion = before?.version ?? -1;
    if (event.revision <= currentVersion) {
      outcome.skipped++;
      continue;
    }
    if (event.revision !== currentVersion + 1) {
      outcome.gaps.push(event);
      continue;
    }
    const state = (before?.fields as { status: string } | undefined) ?? target.projection.model.initialState;
    const recorded = { type: event.type, data: event.data, time: event.time, revision: event.revision } as unknown as Recorded<DomainEvent>;
    const next = target.projection.model.evolve(state, recorded);
    const doc: ReadDocument = {
      id: target.id,
      version: event.revision,
      seq: before?.seq ?? event.position,
      deleted: next.status === 'deleted',
      fields: next as unknown as Record<string, JsonValue>,
    };
    // The write expects what was stored before the batch, however many events touched it since.
    const entry = working.get(key);
    const expectedVersion = entry ? entry.expectedVersion : (before?.version ?? null);
    working.set(key, { collection: target.collection, doc, expectedVersion });
    outcome.applied++;
  }
  outcome.writes = [...working.values()];
  return outcome;
}
