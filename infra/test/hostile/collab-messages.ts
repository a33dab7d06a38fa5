// Hostile messages for the collab WebSocket, as fast-check arbitraries: every action of ShareDB's
// protocol with its fields, each field sometimes of a wrong type, nested wrongly, huge or empty,
// and now and then a frame that is no message at all. Mostly well-shaped, so that the run gets
// past the first checks into the deeper ones (the op's content, presence, bulk and queries).
import fc from 'fast-check';

const TEXT_TYPE = 'http://sharejs.org/types/rich-text/v1';
/** The largest message the server takes by default is 256 KiB: values near and past it. */
const HUGE = 'x'.repeat(200_000);
const TOO_BIG = 'y'.repeat(300_000);

/** What a message may name: documents of the sender's, of nobody yet, of someone else. */
export interface Aims {
  /** Documents the sender may act on (its own). */
  own: string[];
  /** Documents the sender may not see. */
  others: string[];
}

const nastyText = fc.constantFrom(
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '..',
  '\u0000',
  '\ud800',
  '😀'.repeat(20),
  'a'.repeat(101),
  '$where',
  'documents.x',
  'collab-access',
  'collab-names',
);

const deepArray = (depth: number): unknown => (depth === 0 ? [] : [deepArray(depth - 1)]);
const deepObject = (depth: number): unknown => (depth === 0 ? {} : { ops: deepObject(depth - 1) });

/** A value of any JSON type, small, odd or huge: what a field holds when it holds the wrong thing. */
const wrong: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 2 ** 53, 1e308, Number.MAX_SAFE_INTEGER + 2) },
  { weight: 3, arbitrary: fc.oneof(fc.string({ maxLength: 12 }), nastyText) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(HUGE, [HUGE], { [HUGE.slice(0, 1000)]: 1 }, deepArray(500), deepObject(500)) },
  { weight: 1, arbitrary: fc.constantFrom([], {}, [[]], [{}], { ops: null }, { ops: {} }) },
);

/** The field mostly as it should be, sometimes wrong. */
const field = <T>(good: fc.Arbitrary<T>, goodWeight = 9) =>
  fc.oneof({ weight: goodWeight, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: wrong });

const versions = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 40 }) },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1e9, 0.5) },
);
const insert = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('😀', '\u0000', '\ud800x', HUGE));

/** A delta component: the three kinds a plain-text op may hold, and what it may not (attributes, embeds). */
const component = fc.oneof(
  { weight: 4, arbitrary: insert.map((text) => ({ insert: text })) },
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 50 }).map((n) => ({ retain: n })) },
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 50 }).map((n) => ({ delete: n })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { insert: 'b', attributes: { bold: true } },
      { insert: { image: 'x.png' } },
      { retain: 1, delete: 1 },
      { insert: 5 },
      { retain: '3' },
      {},
      { __proto__: { insert: 'x' } },
    ),
  },
  { weight: 1, arbitrary: wrong },
);
const components = fc.array(component, { maxLength: 6 });
/** A delta as rich-text takes it: a list of components, or an object whose ops are. */
const delta = fc.oneof({ weight: 3, arbitrary: components }, { weight: 2, arbitrary: components.map((ops) => ({ ops })) });

const create = fc.record(
  {
    type: field(fc.constantFrom(TEXT_TYPE, 'rich-text', 'json0', 'http://sharejs.org/types/JSONv0', 'text-unicode', 'nope'), 6),
    data: field(delta),
  },
  { requiredKeys: [] },
);

function documentFields(aims: Aims) {
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...aims.own) },
    { weight: 1, arbitrary: fc.constantFrom(...aims.others) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9_-]{1,12}$/) },
    { weight: 1, arbitrary: wrong },
  );
  const collection = fc.oneof(
    { weight: 8, arbitrary: fc.constant('documents') },
    { weight: 1, arbitrary: fc.constantFrom('collab-access', 'collab-names', 'users', 'o_documents', '__proto__') },
    { weight: 1, arbitrary: wrong },
  );
  return { c: collection, d: id };
}

/** One message of each kind ShareDB knows (agent.js), with the fields it reads. */
export function collabMessages(aims: Aims): fc.Arbitrary<unknown> {
  const { c, d } = documentFields(aims);
  const v = field(versions);
  const seq = field(fc.nat({ max: 1e6 }));
  const queryId = field(fc.nat({ max: 100 }));
  const bulk = field(
    fc.oneof(
      fc.dictionary(fc.constantFrom(...aims.own, ...aims.others), versions, { maxKeys: 4 }),
      fc.array(fc.constantFrom(...aims.own, ...aims.others), { maxLength: 4 }),
    ),
  );
  const channel = field(
    fc.oneof(
      d.map((id) => `documents.${String(id)}`),
      fc.constantFrom('documents', '', '__proto__'),
    ),
  );
  const cursor = field(
    fc.oneof(
      fc.record({ index: fc.integer({ min: -1, max: 60 }), length: fc.integer({ min: -1, max: 20 }) }),
      fc.record({ index: fc.nat({ max: 60 }), length: fc.nat({ max: 20 }), idle: fc.boolean() }),
      fc.constant(null),
    ),
  );
  const query = field(
    fc.oneof(
      fc.constant({}),
      fc.record({ $limit: fc.integer({ min: -1, max: 2000 }), $skip: fc.integer({ min: -1, max: 20 }) }, { requiredKeys: [] }),
      fc.constantFrom({ $where: 'sleep(1000)' }, { _id: { $ne: null } }, { $limit: '5' }),
    ),
  );
  // Mostly with every field the action reads, sometimes with some left out.
  const message = <T extends Record<string, fc.Arbitrary<unknown>>>(a: string, fields: T) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.record({ a: field(fc.constant(a), 12), ...fields }) },
      { weight: 1, arbitrary: fc.record({ a: field(fc.constant(a), 12), ...fields }, { requiredKeys: ['a'] }) },
    );

  const editing = fc.oneof(
    message('op', { c, d, v, seq, src: field(fc.constant(undefined), 2), op: field(delta) }),
    message('op', { c, d, v, seq, create: field(create) }),
    message('op', { c, d, v, seq, del: field(fc.constant(true)) }),
    message('op', { c, d, v, seq, op: field(delta), create: field(create), del: wrong, m: wrong, x: wrong }),
  );
  const reading = fc.oneof(
    message('f', { c, d, v }),
    message('s', { c, d, v }),
    message('u', { c, d }),
    message('bf', { c, b: field(fc.array(fc.constantFrom(...aims.own, ...aims.others), { maxLength: 4 })) }),
    message('bs', { c, b: bulk }),
    message('bu', { c, b: bulk }),
    message('nf', { id: queryId, c, d, v }),
    message('nt', { id: queryId, c, d, ts: field(fc.oneof(fc.nat(), fc.constant(Date.now()))) }),
  );
  const querying = fc.oneof(
    message('qf', { id: queryId, c, q: query, r: field(fc.array(fc.tuple(d, versions), { maxLength: 3 })) }),
    message('qs', { id: queryId, c, q: query }),
    message('qu', { id: queryId }),
  );
  const presence = fc.oneof(
    message('p', { ch: channel, src: field(fc.constant(undefined), 2), id: field(fc.string({ maxLength: 8 })), seq, c, d, v, p: cursor }),
    message('p', {
      id: field(fc.string({ maxLength: 8 })),
      c,
      d,
      v,
      p: cursor,
      t: field(fc.constant(TEXT_TYPE)),
      pv: seq,
      r: field(fc.boolean()),
    }),
    message('ps', { ch: channel, seq }),
    message('pu', { ch: channel, seq }),
    message('pr', { ch: channel }),
  );
  const session = fc.oneof(
    message('hs', { protocol: field(fc.constant(1)), protocolMinor: field(fc.constant(2)), id: field(fc.string({ maxLength: 30 })) }),
    message('pp', {}),
    message('init', { protocol: wrong }),
    message('fixup', { c, d }),
    message('q', { id: queryId }),
    fc.record({ a: wrong, c, d, v, op: wrong }, { requiredKeys: [] }),
    fc.dictionary(fc.constantFrom('a', 'c', 'd', 'v', 'b', 'ch', 'id', 'seq', 'src', 'op', 'create', 'p', '__proto__'), wrong, {
      maxKeys: 6,
    }),
  );
  return fc.oneof(
    { weight: 6, arbitrary: editing },
    { weight: 3, arbitrary: reading },
    { weight: 1, arbitrary: querying },
    { weight: 3, arbitrary: presence },
    { weight: 2, arbitrary: session },
  );
}

/** A frame that is not a message: answered by closing the connection with a documented code. */
export type Frame = { message: unknown } | { text: string } | { binary: Uint8Array };

export function collabFrames(aims: Aims): fc.Arbitrary<Frame> {
  return fc.oneof(
    { weight: 200, arbitrary: collabMessages(aims).map((message) => ({ message })) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<Frame>(
        { message: null },
        { message: 7 },
        { message: 'hs' },
        { message: [{ a: 'hs' }] },
        { text: '{"a":"op"' },
        { text: '' },
        { text: TOO_BIG },
        { binary: new Uint8Array([1, 2, 3]) },
      ),
    },
  );
}

/** The close codes a frame that is not a message may get (docs/collab.md "Connecting"). */
export const FRAME_CLOSE_CODES = [1003, 1007, 1009];
