// The read-store port: the read models the projector maintains and the query service serves.
//
// Idempotence lives in the documents, not in the checkpoint: every document carries the
// revision of the last event applied to it, and a write states the version it expects to
// replace, so an event replayed after a crash changes nothing. Deleted entities stay as
// tombstones for the same reason. The checkpoint only says where to resume.
//
// A generation is one complete set of read models. A rebuild fills a fresh generation while
// the active one goes on serving, then promotes it in one step.
import type { Model } from '@eventide/kernel/events/catalogue.ts';
import type { OrderState } from '@eventide/kernel/models/order/state.ts';
import type { ProductState } from '@eventide/kernel/models/product/state.ts';
import type { UserState } from '@eventide/kernel/models/user/state.ts';

/** The checkpoint the projector keeps and reads wait on. */
export const READ_MODELS_CHECKPOINT = 'read-models';

/**
 * What each collection's documents hold: the entity's state as the model's evolve leaves it (the
 * same state the write side decides on), never absent: a document exists from the created event on.
 */
export interface ReadFields {
  users: Exclude<UserState, { status: 'absent' }>;
  products: Exclude<ProductState, { status: 'absent' }>;
  orders: Exclude<OrderState, { status: 'absent' }>;
}

export type Collection = keyof ReadFields;
export const COLLECTIONS: readonly Collection[] = ['users', 'products', 'orders'];
/** Which collection holds each model's entities: an event of `order:…` changes a document of `orders`. */
export const COLLECTION_OF = { user: 'users', product: 'products', order: 'orders' } as const satisfies Record<Model, Collection>;

/** Fields that lists can filter on by equality, per collection. */
export const FILTERABLE: Readonly<Record<Collection, readonly string[]>> = {
  users: [],
  products: ['category'],
  orders: ['userId', 'status'],
};

export interface ReadDocument<C extends Collection = Collection> {
  id: string;
  /** Stream revision of the last event applied. */
  version: number;
  /** Global position of the entity's created event: lists are ordered by it, newest first. */
  seq: number;
  deleted: boolean;
  fields: ReadFields[C];
}

/** A write of one document: of one collection, with that collection's fields (a union over collections, so that `collection` tells which). */
export type DocumentWrite<C extends Collection = Collection> = {
  [K in C]: {
    collection: K;
    doc: ReadDocument<K>;
    /** The version the stored document must have, or null when it must not exist yet. */
    expectedVersion: number | null;
  };
}[C];

/** An order of a list: a SORTS entry, ascending unless descending; ties go by seq the same way. */
export interface ListOrder {
  by: string;
  descending: boolean;
}

/** Where a keyset page of an ordered list continues after: the last document's keys, and its seq. */
export interface ListPosition {
  keys: ReadonlyArray<string | number>;
  seq: number;
}

/** Conditions on the keys: a value the key must have, or bounds (inclusive) it must lie within. */
export type KeyConditions = Readonly<Record<string, { equals?: string | number; min?: number; max?: number }>>;

/**
 * Offset paging (with a total), keyset paging below a seq (null: from the top; no total), or
 * keyset paging after a position in the list's order (list-keys.ts). Newest first unless `order`
 * says; `keys` conditions only by keyset, as a total cannot count them without a scan.
 */
export type ListQuery = { filter?: Record<string, string>; order?: ListOrder; keys?: KeyConditions; limit: number } & (
  | { offset: number }
  | { beforeSeq: number | null }
  | { after: ListPosition | null }
);

export interface ListResult<C extends Collection = Collection> {
  items: ReadDocument<C>[];
  /** Total of live documents matching the filter (offset paging only). */
  total?: number;
}

export interface ReadModelWriter {
  readonly generation: number;
  getMany<C extends Collection>(collection: C, ids: string[]): Promise<Map<string, ReadDocument<C>>>;
  /**
   * Applies the writes whose expected version matches (the rest are stale replays and are
   * skipped), then moves the checkpoint; atomically where the engine allows. `erasing`: the writes
   * forget someone, so the store leaves no copy of what they replace in its files, where it can
   * (docs/privacy.md).
   */
  write(writes: DocumentWrite[], checkpoint: { name: string; position: number }, options?: { erasing?: boolean }): Promise<void>;
  checkpoint(name: string): Promise<number>;
  /**
   * A write is on its way (the projector has events in hand): work the store would do between
   * writes waits for it, rather than running in front of it. Stores that leave no such work
   * need not have it.
   */
  expectWrite?(): void;
}

export interface ReadStore {
  activeGeneration(): Promise<number>;
  /** The checkpoint `name` of the generation that reads are served from: how far those reads have got. */
  servedCheckpoint(name: string): Promise<number>;
  /** A fresh, empty generation for a rebuild, not served until promoted. */
  createGeneration(): Promise<number>;
  /** The newest generation made for a rebuild and not (yet) promoted: one under way, or one given up. */
  pendingGeneration(): Promise<number | undefined>;
  /**
   * Makes the generation the one queries read, and drops the one it replaces: true. Unless it is
   * behind the active one (a lower READ_MODELS_CHECKPOINT): then nothing changes and the answer
   * is false, for the caller to catch up and ask again. Promoting a generation that is behind
   * would take back what reads have already been told they include (Read-Position, and the
   * writes a Wait-For-Position was answered with).
   */
  promote(generation: number): Promise<boolean>;
  writer(generation: number): ReadModelWriter;

  /** Checkpoints of other followers of the log (the Kafka publisher): no rebuild resets them. */
  loadCheckpoint(name: string): Promise<number>;
  /** Moves a follower's checkpoint forward; never backwards. */
  saveCheckpoint(name: string, position: number): Promise<void>;

  /** Reads of the active generation; tombstones included, so that callers can answer 410. */
  get<C extends Collection>(collection: C, id: string): Promise<ReadDocument<C> | undefined>;
  /** Live documents, newest first. */
  list<C extends Collection>(collection: C, query: ListQuery): Promise<ListResult<C>>;
  /**
   * The live user whose email is this one, compared without regard to case (ASCII letters on
   * SQLite) and surrounding spaces; by an index, never a scan.
   */
  userByEmail(email: string): Promise<ReadDocument<'users'> | undefined>;
  close(): Promise<void>;
}
