// Events that evolve. Each public event's payload has a schema version, written in the event's
// metadata when it is appended (`schemaVersion`; events written before versions existed have none,
// and are version 1). Each event's upcasters turn a payload of one version into the next, so that
// an event of any version reads as the current one wherever it is read: through the event store the
// services open (stores/event-store/versioned.ts) and in the subscriber SDK, for what the bus
// retained. The store is never rewritten to change a schema.
//
// To change an event (docs/events.md#changing-an-event): change its entity's declaration
// (entities/) or its schema in catalogue.ts, add the upcaster from the version before here, and
// `npm run events:publish`; the compatibility gate (versions.unit.test.ts) fails until both are done.
import type { EventName } from './catalogue.ts';
import type { JsonValue } from './recorded.ts';

export type Payload = { [key: string]: JsonValue };
/** Turns a payload of one version into one of the next; it sees personal fields sealed or opened, and must pass them through untouched. */
export type Upcaster = (data: Payload) => Payload;

/** Per event, its upcasters in order, from version 1: the current version is one more than there are. */
export type Upcasters = { readonly [N in EventName]: readonly Upcaster[] };

/** This release's: what it knows of every event's versions. */
export const UPCASTERS: Upcasters = {
  'user:created': [],
  'user:updated': [],
  'user:deleted': [],
  'product:created': [
    // Version 2 (2026-11-27): a product states the tax rate included in its price. Those listed
    // before did not: their rate is not known (null), which is not a rate of 0.
    (data) => ({ ...data, taxRate: null }),
    // Version 3 (2026-11-29): a product has pictures. Those listed before had none.
    (data) => ({ ...data, images: [] }),
  ],
  'product:updated': [
    // Version 2: a change may set the tax rate. Every change of version 1 is also one of version 2.
    (data) => data,
    // Version 3: a change may set the pictures. Every change of version 2 is also one of version 3.
    (data) => data,
  ],
  'product:deleted': [],
  'order:created': [
    // Version 2 (2026-11-29): an order holds the payment recorded with its step to paid. One
    // created before was not paid yet: none.
    (data) => ({ ...data, payment: null }),
  ],
  'order:updated': [
    // Version 2: a change may record the payment. Every change of version 1 is also one of version 2.
    (data) => data,
  ],
  'order:deleted': [],
};

/** The newest version of `type` a release knows: this one's, or the one whose upcasters are given. */
export function currentSchemaVersion(type: EventName, upcasters: Upcasters = UPCASTERS): number {
  return upcasters[type].length + 1;
}

/** The schema version an event was written at: 1 for events written before versions existed. */
export function schemaVersionOf(metadata: { schemaVersion?: number | undefined }): number {
  return metadata.schemaVersion ?? 1;
}

/** An event written by a release newer than this code: it cannot be read as any version known here. */
export class NewerEventVersionError extends Error {
  readonly eventType: EventName;
  readonly version: number;
  /** The newest version the release that met it knows. */
  readonly known: number;
  constructor(type: EventName, version: number, known = currentSchemaVersion(type)) {
    super(
      `${type} version ${version} is newer than this release knows (${known}): upgrade to a release that knows it (docs/events.md#changing-an-event)`,
    );
    this.name = 'NewerEventVersionError';
    this.eventType = type;
    this.version = version;
    this.known = known;
  }
}

/** The payload of `type` written at `version`, as the current version: unchanged when it is current. */
export function upcast(type: EventName, version: number, data: Payload, upcasters: Upcasters = UPCASTERS): Payload {
  const known = currentSchemaVersion(type, upcasters);
  if (version > known) throw new NewerEventVersionError(type, version, known);
  return upcastWith(upcasters[type], version, data, type);
}

/** `data` of `version` through the upcasters after it (the compatibility gate runs a catalogue's own). */
export function upcastWith(upcasters: readonly Upcaster[], version: number, data: Payload, type = 'an event'): Payload {
  if (!Number.isSafeInteger(version) || version < 1 || version > upcasters.length + 1) {
    throw new RangeError(`${type}: ${JSON.stringify(version)} is not a schema version (1 to ${upcasters.length + 1})`);
  }
  let upcasted = data;
  for (let from = version; from <= upcasters.length; from++) upcasted = upcasters[from - 1]!(upcasted);
  return upcasted;
}
