// The shape of each message a client may send, by ShareDB's action, as its agent reads it
// (sharedb/lib/agent.js). ShareDB trusts these fields: a document id that is an object reached
// the store as a statement parameter, a query's results that were not pairs threw inside ShareDB,
// an op with no content failed on its `seq`. So every message is checked here first, and a wrong
// field is refused with ERR_BAD_MESSAGE naming it, before any other check or ShareDB sees it.
// Fields ShareDB does not read are let through; what each field may say (which collection, which
// document, what an op may contain) is for the checks that follow (checks.ts, text-ops.ts).
import { z } from 'zod';
import { collabErrors } from '../errors.ts';
import { ACTIONS } from './checks.ts';

const name = z.string({ error: 'must be a string' });
/** A document's version, or none (null: "the latest", for presence and subscriptions). */
const version = z.number({ error: 'must be a version: a whole number of 0 or more, or null' }).int().nonnegative().nullable();
const count = (what: string) =>
  z
    .number({ error: `must be ${what}: a whole number of 0 or more` })
    .int()
    .nonnegative();
/** ShareDB numbers a connection's ops and presence changes from 1; past 2^53 they would no longer compare. */
const sequence = count('a sequence number').max(Number.MAX_SAFE_INTEGER - 1);
const object = z.record(z.string(), z.unknown(), { error: 'must be an object' });

const document = { c: name, d: name };
const query = {
  id: count('a query id'),
  c: name,
  q: object,
  // Options are handed to the store: none are taken.
  o: z.strictObject({}, { error: 'query options are not taken: leave o out' }).optional(),
};

const op = z
  .looseObject({
    ...document,
    v: version.optional(),
    seq: sequence,
    src: name.nullable().optional(),
    x: object.optional(),
    create: z.looseObject({ type: name, data: z.unknown().optional() }, { error: 'must be { type, data }' }).optional(),
    del: z.literal(true, { error: 'must be true' }).optional(),
  })
  .refine((message) => ['op', 'create', 'del'].filter((key) => message[key] !== undefined).length === 1, {
    error: 'an op has exactly one of op, create or del',
  });

/** Each action's fields; an action not listed has none of its own (a ping), or is ShareDB's to refuse. */
const SHAPES: Record<string, z.ZodType> = {
  [ACTIONS.handshake]: z.looseObject({
    protocol: count('a protocol version').optional(),
    protocolMinor: count('a protocol version').optional(),
    id: name.nullable().optional(),
  }),
  [ACTIONS.queryFetch]: z.looseObject({
    ...query,
    r: z.array(z.tuple([name, version]), { error: 'must be [id, version] pairs' }).optional(),
  }),
  [ACTIONS.querySubscribe]: z.looseObject(query),
  [ACTIONS.queryUnsubscribe]: z.looseObject({ id: query.id }),
  [ACTIONS.bulkFetch]: z.looseObject({ c: name, b: z.array(name, { error: 'must be a list of document ids' }) }),
  [ACTIONS.bulkSubscribe]: z.looseObject({
    c: name,
    b: z.union([z.array(name), z.record(z.string(), version)], { error: 'must be a list of ids, or ids with their versions' }),
  }),
  [ACTIONS.bulkUnsubscribe]: z.looseObject({ c: name, b: z.array(name, { error: 'must be a list of document ids' }) }),
  [ACTIONS.fetch]: z.looseObject({ ...document, v: version.optional() }),
  [ACTIONS.subscribe]: z.looseObject({ ...document, v: version.optional() }),
  [ACTIONS.unsubscribe]: z.looseObject(document),
  [ACTIONS.op]: op,
  [ACTIONS.snapshotFetch]: z.looseObject({ id: query.id, ...document, v: version.optional() }),
  [ACTIONS.snapshotFetchByTimestamp]: z.looseObject({
    id: query.id,
    ...document,
    ts: count('a time in milliseconds').nullable().optional(),
  }),
  [ACTIONS.presence]: z.looseObject({
    ch: name.optional(),
    id: name,
    seq: sequence.optional(),
    c: name.optional(),
    d: name.optional(),
    v: version.optional(),
    t: name.nullable().optional(),
    pv: sequence,
    r: z.boolean({ error: 'must be true or false' }).optional(),
  }),
  [ACTIONS.presenceSubscribe]: z.looseObject({ ch: name, seq: sequence }),
  [ACTIONS.presenceUnsubscribe]: z.looseObject({ ch: name, seq: sequence }),
  [ACTIONS.presenceRequest]: z.looseObject({ ch: name }),
};

/** Throws ERR_BAD_MESSAGE naming the first field of the message that is not of its action's shape. */
export function checkMessageShape(message: { a?: unknown }): void {
  const shape = typeof message.a === 'string' && Object.hasOwn(SHAPES, message.a) ? SHAPES[message.a] : undefined;
  if (!shape) return;
  const parsed = shape.safeParse(message);
  if (parsed.success) return;
  const [issue] = parsed.error.issues;
  throw collabErrors.badMessage(message.a as string, issue!.path.map(String).join('.'), issue!.message);
}
