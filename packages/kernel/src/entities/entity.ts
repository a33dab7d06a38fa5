// One declaration per entity: the details a client states and changes, each as events have
// always stored it and as a new write must say it. Everything else about the entity's shape is
// derived from it: its events' payloads (events/catalogue.ts), its state (models/<entity>/state.ts), the
// fields sealed on the bus (events/personal-fields.ts), and in the contract the API's bodies and
// the representation (contract/entities.ts). Adding a detail is one line in the declaration, and
// a new version of the events that carry it (docs/events.md#changing-an-event).
import { z } from 'zod';

export interface Detail<
  Stored extends z.ZodType = z.ZodType,
  Accepted extends z.ZodType = z.ZodType,
  Optional extends boolean = boolean,
  Fixed extends boolean = boolean,
> {
  /** What an event may carry. Every event ever recorded must still pass, so it may only loosen. */
  readonly stored: Stored;
  /** What a create or a change must say today: the text bounds, the codes, the precision. */
  readonly accepted: Accepted;
  /** Whether a create may leave it out; it is then `unstated`. */
  readonly optional: Optional;
  /** What a create that leaves it out means, and what an entity recorded before the detail existed shows. */
  readonly unstated: z.output<Stored> | undefined;
  /**
   * Personal data (docs/privacy.md): sealed on the bus, and forgotten when the entity is deleted.
   * Only the user's details may be: a user's stream is the person's, whose key seals them
   * (events/personal-fields.ts); another entity's stream has no one's key.
   */
  readonly personal: boolean;
  /** Stated when the entity is created and never changed (an order's customer): in no change. */
  readonly fixed: Fixed;
}

interface DetailOptions<F extends boolean> {
  personal?: boolean;
  fixed?: F;
}

/** A detail every create states. */
export function detail<S extends z.ZodType, A extends z.ZodType, F extends boolean = false>(
  stored: S,
  accepted: A,
  options: DetailOptions<F> = {},
): Detail<S, A, false, F> {
  return {
    stored,
    accepted,
    optional: false,
    unstated: undefined,
    personal: options.personal ?? false,
    fixed: (options.fixed ?? false) as F,
  };
}

/** A detail a create may leave out, which then means `unstated`. */
export function optionalDetail<S extends z.ZodType, A extends z.ZodType, F extends boolean = false>(
  stored: S,
  accepted: A,
  unstated: z.output<S> & z.output<A>,
  options: DetailOptions<F> = {},
): Detail<S, A, true, F> {
  return { stored, accepted, optional: true, unstated, personal: options.personal ?? false, fixed: (options.fixed ?? false) as F };
}

type Details = Readonly<Record<string, Detail>>;
type StoredShape<D extends Details> = { -readonly [K in keyof D]: D[K]['stored'] };
/** The details a change may carry: all but the fixed. */
type ChangeableName<D extends Details> = { [K in keyof D]: D[K] extends Detail<z.ZodType, z.ZodType, boolean, true> ? never : K }[keyof D];
type StoredChangesShape<D extends Details> = { -readonly [K in ChangeableName<D>]: z.ZodOptional<D[K]['stored']> };
type ChangesInputShape<D extends Details> = { -readonly [K in ChangeableName<D>]: z.ZodOptional<D[K]['accepted']> };
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
  /** The details as events store them: `<name>:created` carries them all. */
  stored: StoredObject<D>;
  /** What `<name>:updated` carries: any of the details but the fixed. */
  storedChanges: z.ZodObject<StoredChangesShape<D>, z.core.$strict>;
  /** A create's details: every accepted one, each optional one defaulting to what it means unstated. */
  createInput: z.ZodObject<CreateShape<D>, z.core.$strict>;
  /** A change: any accepted details but the fixed, at least one. */
  changesInput: z.ZodObject<ChangesInputShape<D>, z.core.$strict>;
  /** The personal details' names. */
  personal: ReadonlyArray<keyof D & string>;
  /** Every detail: those given, and each optional one left out as it means unstated (for the seed and the tests' builders). */
  complete(given: GivenDetails<D>): z.output<StoredObject<D>>;
}

function shapeOf<D extends Details, T>(
  details: D,
  pick: (detail: Detail) => T,
  only: (detail: Detail) => boolean = () => true,
): Record<string, T> {
  return Object.fromEntries(Object.entries(details).flatMap(([name, d]) => (only(d) ? [[name, pick(d)]] : [])));
}

export function declareEntity<const Name extends string, const IdKey extends string, const D extends Details>(
  name: Name,
  idKey: IdKey,
  details: D,
): Entity<Name, IdKey, D> {
  // The shapes are built by walking the declaration; their types are the mapped types above.
  const changeable = (d: Detail) => !d.fixed;
  const changeableNames = Object.keys(details).filter((name) => changeable(details[name]!));
  const unstated = Object.fromEntries(Object.entries(details).flatMap(([name, d]) => (d.optional ? [[name, d.unstated]] : [])));
  return {
    name,
    idKey,
    details,
    stored: z.strictObject(shapeOf(details, (d) => d.stored) as StoredShape<D>),
    createInput: z.strictObject(shapeOf(details, (d) => (d.optional ? d.accepted.default(d.unstated) : d.accepted)) as CreateShape<D>),
    storedChanges: z.strictObject(shapeOf(details, (d) => d.stored.optional(), changeable) as StoredChangesShape<D>),
    changesInput: z
      .strictObject(shapeOf(details, (d) => d.accepted.optional(), changeable) as ChangesInputShape<D>)
      .refine((changes) => Object.keys(changes).length > 0, `send at least one of: ${changeableNames.join(', ')}`),
    personal: Object.keys(details).filter((key) => details[key]?.personal),
    complete: (given) => ({ ...unstated, ...given }) as z.output<StoredObject<D>>,
  };
}
