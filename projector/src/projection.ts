// Turns events into read-model documents. A document is the entity's state, folded by the
// same evolve the write side uses (packages/kernel/src/models), so a read answers exactly what
// the write answered. An event applies only on the version just before it: replays and
// duplicates change nothing.
import { isEventName, type Model } from '@eventide/kernel/events/catalogue.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { type DomainEvent, type EntityModel, fold } from '@eventide/kernel/models/model.ts';
import { ORDER } from '@eventide/kernel/entities/order.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { USER } from '@eventide/kernel/entities/user.ts';
import { ENTITY_MODELS } from '@eventide/kernel/models/registry.ts';
import {
  COLLECTION_OF,
  type Collection,
  type DocumentWrite,
  type ReadDocument,
  type ReadFields,
} from '@eventide/stores/read-store/port.ts';

type Absent = { status: 'absent' };

interface Projection<C extends Collection> {
  collection: C;
  model: EntityModel<ReadFields[C] | Absent, DomainEvent>;
  idOf: (data: Record<string, unknown>) => string;
}

const PROJECTIONS: { user: Projection<'users'>; product: Projection<'products'>; order: Projection<'orders'> } = {
  user: { collection: COLLECTION_OF.user, model: ENTITY_MODELS.user, idOf: (d) => String(d[USER.idKey]) },
  product: { collection: COLLECTION_OF.product, model: ENTITY_MODELS.product, idOf: (d) => String(d[PRODUCT.idKey]) },
  order: { collection: COLLECTION_OF.order, model: ENTITY_MODELS.order, idOf: (d) => String(d[ORDER.idKey]) },
};

/** Which document an event belongs to, or undefined for events that have no read model. */
export function targetOf(event: RecordedEvent): { model: Model; collection: Collection; id: string } | undefined {
  if (!isEventName(event.type)) return undefined;
  const model = event.type.split(':')[0] as Model;
  const projection = PROJECTIONS[model];
  return { model, collection: projection.collection, id: projection.idOf(event.data as Record<string, unknown>) };
}

/** The stored documents a batch touches, by collection. */
export type StoredDocuments = { [C in Collection]: ReadonlyMap<string, ReadDocument<C>> };

export interface BatchOutcome {
  writes: DocumentWrite[];
  applied: number;
  /** Events already in the read model (replays). */
  skipped: number;
  /** Events that arrived before the one they follow, or that make nothing of an entity that does not exist: a read model that lost data (rebuild it). */
  gaps: RecordedEvent[];
}

/**
 * Applies a batch of events, in order, on top of the stored documents, and returns one write per
 * touched document, each expecting the version it had before the batch. Each collection is
 * projected apart (an event touches one document of one collection), so that each is typed with
 * its own state. The events at `skipped` positions pass without changing anything but the version.
 */
export function projectBatch(events: RecordedEvent[], stored: StoredDocuments, skipped: ReadonlySet<number> = NONE): BatchOutcome {
  const byModel: Record<Model, RecordedEvent[]> = { user: [], product: [], order: [] };
  for (const event of events) {
    const target = targetOf(event);
    if (target) byModel[target.model].push(event);
  }
  const outcome: BatchOutcome = { writes: [], applied: 0, skipped: 0, gaps: [] };
  outcome.writes.push(
    ...projectCollection(PROJECTIONS.user, byModel.user, stored.users, outcome, skipped),
    ...projectCollection(PROJECTIONS.product, byModel.product, stored.products, outcome, skipped),
    ...projectCollection(PROJECTIONS.order, byModel.order, stored.orders, outcome, skipped),
  );
  return outcome;
}

const NONE: ReadonlySet<number> = new Set();

/** A state that exists: what a document holds. */
const exists = <S extends { status: string }>(state: S | Absent): state is S => state.status !== 'absent';

function projectCollection<C extends Collection>(
  projection: Projection<C>,
  events: RecordedEvent[],
  stored: ReadonlyMap<string, ReadDocument<C>>,
  outcome: BatchOutcome,
  skipped: ReadonlySet<number>,
): DocumentWrite<C>[] {
  const working = new Map<string, { doc: ReadDocument<C>; expectedVersion: number | null }>();
  for (const event of events) {
    const id = projection.idOf(event.data as Record<string, unknown>);
    const before = working.get(id)?.doc ?? stored.get(id);
    const storedRevision = before?.version ?? -1;
    if (event.revision <= storedRevision) {
      outcome.skipped++;
      continue;
    }
    if (event.revision !== storedRevision + 1) {
      outcome.gaps.push(event);
      continue;
    }
    // An event an operator skipped (docs/operations.md#faults) changes nothing but the version it passes.
    const next = skipped.has(event.position)
      ? before && { ...before.fields, version: event.revision }
      : fold(projection.model, [event], before?.fields ?? projection.model.initialState);
    if (!next || !exists(next)) {
      outcome.gaps.push(event);
      continue;
    }
    const doc: ReadDocument<C> = {
      id,
      version: event.revision,
      seq: before?.seq ?? event.position,
      deleted: next.status === 'deleted',
      fields: next,
    };
    // The write expects what was stored before the batch, however many events touched it since.
    const entry = working.get(id);
    working.set(id, { doc, expectedVersion: entry ? entry.expectedVersion : (before?.version ?? null) });
    outcome.applied++;
  }
  return [...working.values()].map(({ doc, expectedVersion }) => ({ collection: projection.collection, doc, expectedVersion }));
}
