// One declaration per entity: the details a client states and changes, each as events have
// always stored it and as a new write must say it. Everything else about the entity's shape is
// derived from it: its events' payloads (events/catalogue.ts), its state (models/<entity>/state.ts), the
// fields sealed on the bus (events/personal-fields.ts), and in the contract the API's bodies and
// the representation (contract/entities.ts). Adding a detail is one line in the declaration, and
// a new version of the events that carry it (docs/events.md#changing-an-event).
import { z } from 'zod';

export interface Detail<Stored extends z.ZodType = z.ZodType, Accepted extends z.ZodType = z.ZodType, Optional extends boolean = boolean> {
  /** What an event may carry. Every event ever recorded must still pass, so it may only loosen. */
  readonly stored: Stored;
  /** What a create or a change must say today: the text bounds, the codes, the precision. */
  readonly accepted: Accepted;
  /** Whether a create may leave it out; it is then `unstated`. */
  readonly optional: Optional;
  /** What a create that leaves it out means, and what an entity recorded before the detail existed shows. */
  readonly unstated: z.output<Stored> | undefined;
  /** Personal data (docs/privacy.md): sealed on the bus, and forgotten when the entity is deleted. */
  readonly personal: boolean;
}

/** A detail every create states. */
export function detail<S extends z.ZodType, A extends z.ZodType>(
  stored: S,
  accepted: A,
  options: { personal?: boolean } = {},
): Detail<S, A, false> {
  return { stored, accepted, optional: false, unstated: undefined, personal: options.personal ?? false };
}

/** A detail a create may leave out, which then means `unstated`. */
export function optionalDetail<S extends z.ZodType, A extends z.ZodType>(
  stored: S,
  accepted: A,
  unstated: z.output<S> & z.output<A>,
  options: { personal?: boolean } = {},
): Detail<S, A, true> {
  return { stored, accepted, optional: true, unstated, personal: options.personal ?? false };
}

type Details = Readonly<Record<string, Detail>>;
type StoredShape<D extends Details> = { -readonly [K in keyof D]: D[K]['stored'] };
type AcceptedShape<D extends Details> = { -readonly [K in keyof D]: D[K]['accepted'] };
type CreateShape<D extends Details> = {
  -readonly [K in keyof D]: D[K] extends Detail<z.ZodType, infer A, true> ? z.ZodDefault<A> : D[K]['accepted'];
};

type StoredObject<D extends Details> = z.ZodObject<StoredShape<D>, z.core.$strict>;
type RequiredName<D extends Details> = { [K in keyof D]: D[K] extends Detail<z.ZodType, z.ZodType, true> ? never : K }[keyof D];
/** Every detail a create must state, and any of the others. */
type StoredValues<D extends Details> = z.output<StoredObject<D>>;
export type GivenDetails<D extends Details> = Pick<StoredValues<D>, RequiredName<D> & keyof StoredValues<D>> & Partial<StoredValues<D>>;

/** The entity's details as a state holds them. */
export type DetailsOf<E extends { stored: z.ZodType }> = z.output<E['stored']>;

/** What a declaration gives: the schemas and lists the rest of the system derives from. */
export interface Entity<Name extends string, IdKey extends string, D extends Details> {
  name: Name;
  /** The field that names the entity in its events, state and representation (`productId`). */
  idKey: IdKey;
  details: D;
  /** The details as events store them: `<name>:created` carries them all, `<name>:updated` some. */
  stored: StoredObject<D>;
  /** A create's details: every accepted one, each optional one defaulting to what it means unstated. */
  createInput: z.ZodObject<CreateShape<D>, z.core.$strict>;
  /** A change: any accepted details, at least one. */
  changesInput: z.ZodObject<{ -readonly [K in keyof D]: z.ZodOptional<D[K]['accepted']> }, z.core.$strict>;
  /** The personal details' names. */
  personal: ReadonlyArray<keyof D & string>;
  /** Every detail: those given, and each optional one left out as it means unstated (for the seed and the tests' builders). */
  complete(given: GivenDetails<D>): z.output<StoredObject<D>>;
}

function shapeOf<D extends Details, T>(details: D, pick: (detail: Detail) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(details).map(([name, d]) => [name, pick(d)]));
}

export function declareEntity<const Name extends string, const IdKey extends string, const D extends Details>(
  name: Name,
  idKey: IdKey,
  details: D,
): Entity<Name, IdKey, D> {
  // The shapes are built by walking the declaration; their types are the mapped types above.
  const accepted = shapeOf(details, (d) => d.accepted) as AcceptedShape<D>;
  const unstated = Object.fromEntries(Object.entries(details).flatMap(([name, d]) => (d.optional ? [[name, d.unstated]] : [])));
  return {
    name,
    idKey,
    details,
    stored: z.strictObject(shapeOf(details, (d) => d.stored) as StoredShape<D>),
    createInput: z.strictObject(shapeOf(details, (d) => (d.optional ? d.accepted.default(d.unstated) : d.accepted)) as CreateShape<D>),
    changesInput: z
      .strictObject(accepted)
      .partial()
      .refine((changes) => Object.keys(changes).length > 0, `send at least one of: ${Object.keys(details).join(', ')}`),
    personal: Object.keys(details).filter((key) => details[key]?.personal),
    complete: (given) => ({ ...unstated, ...given }) as z.output<StoredObject<D>>,
  };
}
