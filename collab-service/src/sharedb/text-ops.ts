// What a document may contain: plain text in the rich-text type (Quill deltas), with no
// formatting attributes and no embeds. Checked on every submitted op before it is applied, so
// that a hand-written client cannot store what the editor cannot show.
import richTextModule from 'rich-text';
import { collabErrors } from '../errors.ts';

const richText = richTextModule.type;

export const TEXT_TYPE_URI = richText.uri;
const TEXT_TYPE_NAMES = new Set([richText.name, richText.uri]);

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * A delta's components: rich-text takes a delta as its list of components or as a Delta object
 * (`{ ops: [...] }`), in a create as in an edit. Undefined when it is neither.
 */
function componentsOf(delta: unknown): unknown[] | undefined {
  const ops = Array.isArray(delta) ? delta : typeof delta === 'object' && delta !== null ? (delta as { ops?: unknown }).ops : undefined;
  return Array.isArray(ops) ? ops : undefined;
}

/** The components of an op that was checked (checkTextOp): its create's content or its edit. */
const checkedComponents = (op: { op?: unknown; create?: { data?: unknown } }) =>
  (componentsOf(op.create ? op.create.data : op.op) ?? []) as { insert?: unknown }[];

/** Throws a CollabError naming the first thing wrong with a delta's components. */
function checkDelta(delta: unknown, allowed: ReadonlySet<'insert' | 'delete' | 'retain'>): void {
  const ops = componentsOf(delta);
  if (!ops) throw collabErrors.badOp('a delta is a list of components, or an object whose ops are');
  ops.forEach((component: unknown, index) => {
    if (typeof component !== 'object' || component === null) throw collabErrors.badOp(`component ${index} is not an object`);
    const keys = Object.keys(component);
    const [key] = keys;
    if (keys.length !== 1 || !key || !allowed.has(key as never)) {
      throw collabErrors.badOp(`component ${index} must have exactly one of ${[...allowed].join(', ')} (no attributes)`);
    }
    const value = (component as Record<string, unknown>)[key];
    if (key === 'insert' ? typeof value !== 'string' || value.length === 0 : !isCount(value)) {
      throw collabErrors.badOp(`component ${index}: ${key} must be ${key === 'insert' ? 'a non-empty string' : 'a positive integer'}`);
    }
  });
}

const EDIT = new Set(['insert', 'delete', 'retain'] as const);
const CONTENT = new Set(['insert'] as const);

/** Checks an op as submitted: a create of a text document, an edit, or a delete. */
export function checkTextOp(op: { op?: unknown; create?: { type?: unknown; data?: unknown }; del?: unknown }): void {
  if (op.create) {
    if (!TEXT_TYPE_NAMES.has(op.create.type as string)) throw collabErrors.badOp(`documents are of type ${richText.name}`);
    if (op.create.data !== undefined) checkDelta(op.create.data, CONTENT);
  } else if ('op' in op) {
    checkDelta(op.op, EDIT);
  } else if (!op.del) {
    throw collabErrors.badOp('an op creates, edits or deletes');
  }
}

/** Whether a checked op inserts text: only such an op can make a document longer. */
export function inserts(op: { op?: unknown; create?: { data?: unknown } }): boolean {
  return op.create !== undefined || checkedComponents(op).some((component) => 'insert' in component);
}

/** About what a checked op takes to store: its inserted text and a little per component (what triggers a trim of history). */
export function roughSizeOf(op: { op?: unknown; create?: { data?: unknown } }): number {
  let size = 64;
  for (const component of checkedComponents(op)) size += 16 + (typeof component.insert === 'string' ? component.insert.length : 0);
  return size;
}

/** The characters (UTF-16 code units) a document's snapshot holds. */
export function charactersOf(snapshot: { data?: unknown }): number {
  const components = (snapshot.data as { ops?: { insert?: unknown }[] } | undefined)?.ops ?? [];
  let length = 0;
  for (const component of components) if (typeof component.insert === 'string') length += component.insert.length;
  return length;
}
