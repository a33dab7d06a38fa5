// The public event catalogue: the nine `<model>:<action>` names, their payload schemas and
// the one envelope every consumer sees. Only these events leave the write side.
import { z } from 'zod';
import { ORDER } from '../entities/order.ts';
import { PRODUCT } from '../entities/product.ts';
import { USER } from '../entities/user.ts';
import { entityId } from '../entities/values.ts';

import type { EventName, Model } from './names.ts';

export { ACTIONS, EVENT_NAMES, isEventName, MODELS } from './names.ts';
export type { Action, EventName, Model } from './names.ts';

/** The events every declared entity has (entities/entity.ts): created with every detail, updated with some, deleted. */
type IdShape<K extends string> = { [P in K]: typeof entityId };
type Declared<K extends string, S extends z.ZodRawShape> = { idKey: K; stored: z.ZodObject<S, z.core.$strict> };
const idShape = <K extends string>(key: K) => ({ [key]: entityId }) as IdShape<K>;
const created = <K extends string, S extends z.ZodRawShape>(entity: Declared<K, S>) =>
  z.strictObject({ ...idShape(entity.idKey), ...entity.stored.shape });
const updated = <K extends string, C extends z.ZodRawShape>(entity: { idKey: K; storedChanges: z.ZodObject<C, z.core.$strict> }) =>
  z.strictObject({ ...idShape(entity.idKey), changes: entity.storedChanges });
const deleted = <K extends string>(entity: { idKey: K }) => z.strictObject(idShape(entity.idKey));

export const payloadSchemas = {
  'user:created': created(USER),
  'user:updated': updated(USER),
  'user:deleted': deleted(USER),
  'product:created': created(PRODUCT),
  'product:updated': updated(PRODUCT),
  'product:deleted': deleted(PRODUCT),
  'order:created': created(ORDER),
  'order:updated': updated(ORDER),
  'order:deleted': deleted(ORDER),
} satisfies Record<EventName, z.ZodType>;

export type PayloadOf<N extends EventName> = z.infer<(typeof payloadSchemas)[N]>;

/** Who caused an event. Sign-in fills `user`; until then requests act as `anonymous`. */
export const actor = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('anonymous') }),
  z.strictObject({ type: z.literal('user'), userId: entityId }),
  z.strictObject({ type: z.literal('system'), name: z.string() }),
]);
export type Actor = z.infer<typeof actor>;

export const eventMetadata = z.object({
  correlationId: z.string(),
  causationId: z.string(),
  actor,
  /** W3C Trace Context of the span that appended (or published) the event, when tracing is on. */
  traceparent: z.string().optional(),
  /** The version of the payload's schema it was written at (versions.ts); absent on events written before versions existed: 1. */
  schemaVersion: z.number().int().positive().optional(),
  /** Why the system made the change by itself, in words (a deadline that passed: docs/deadlines.md); absent for a person's change. */
  reason: z.string().max(500).optional(),
});
export type EventMetadata = z.infer<typeof eventMetadata>;

/** What a consumer of a public event receives, whichever transport carried it. */
export interface EventEnvelope<N extends EventName = EventName> {
  /** Unique per event; consumers drop duplicates by it. */
  id: string;
  type: N;
  /**
   * The version of `data`'s schema: the current one of the release that read it from the store
   * (older events are upcast on the way: docs/events.md#changing-an-event).
   */
  schemaVersion: number;
  /** `<model>-<entity id>` */
  streamId: string;
  /** 0-based position of the event within its stream. */
  revision: number;
  /** Position in the global log; strictly increasing in the order events were committed. */
  position: number;
  /** ISO 8601 time the event was recorded. */
  time: string;
  data: PayloadOf<N>;
  metadata: EventMetadata;
  /** Present when the personal fields of `data` are null because the person they are about was forgotten. */
  forgotten?: true;
  /**
   * Present when the personal fields of `data` are null because this subscriber was given no keys
   * to open them with (docs/events.md): they are not gone, only not readable here.
   */
  withheld?: true;
}

export type AnyEventEnvelope = { [N in EventName]: EventEnvelope<N> }[EventName];

/** Validates a payload against its name's schema; throws a ZodError naming the bad field. */
export function parsePayload<N extends EventName>(type: N, data: unknown): PayloadOf<N> {
  return payloadSchemas[type].parse(data) as PayloadOf<N>;
}

/** `<category>-<entity id>`: the public models' streams, and the write side's private ones (`account-…`). */
export function streamIdOf(model: Model | (string & {}), entityId: string): string {
  return `${model}-${entityId}`;
}
