// Undo and redo of one's own edits only, in a document others edit at the same time. Each own
// edit is kept as its inverse; each edit of someone else moves every kept inverse past it (and is
// moved in turn past each one, from the newest down), so that an undo takes back exactly what this
// person typed, where it is now, and leaves the others' text alone (the scheme of ot.js's undo
// manager, on quill-delta's transform). Keystrokes close together are one step.
import type Delta from 'quill-delta';

export interface OwnUndoOptions {
  /** Steps kept; the oldest go beyond it. */
  limit?: number;
  /** Own edits this close together, with nobody else's between, undo as one step. */
  groupMs?: number;
  clock?: () => number;
}

export class OwnUndo {
  private undos: Delta[] = [];
  private redos: Delta[] = [];
  private lastLocalAt = Number.NEGATIVE_INFINITY;
  private readonly limit: number;
  private readonly groupMs: number;
  private readonly clock: () => number;

  constructor(options: OwnUndoOptions = {}) {
    this.limit = options.limit ?? 200;
    this.groupMs = options.groupMs ?? 1_000;
    this.clock = options.clock ?? Date.now;
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }

  get canRedo(): boolean {
    return this.redos.length > 0;
  }

  /**
   * An edit of one's own, applied to `before` (the document as it was just before it); `alone`:
   * a step of its own whatever came just before (a version restored is not part of the typing).
   */
  local(op: Delta, before: Delta, { alone = false }: { alone?: boolean } = {}): void {
    const inverse = op.invert(before);
    const now = alone ? Number.NEGATIVE_INFINITY : this.clock();
    const last = this.undos.at(-1);
    // Undoing the group undoes the newest edit first, then the ones before it.
    if (last && now - this.lastLocalAt < this.groupMs) this.undos[this.undos.length - 1] = inverse.compose(last);
    else this.undos.push(inverse);
    if (this.undos.length > this.limit) this.undos.shift();
    this.redos = [];
    this.lastLocalAt = now;
  }

  /** An edit of someone else's, applied to the document as it is: what is kept moves past it. */
  remote(op: Delta): void {
    this.undos = transformStack(this.undos, op);
    this.redos = transformStack(this.redos, op);
    // Whatever comes next is a step of its own.
    this.lastLocalAt = Number.NEGATIVE_INFINITY;
  }

  /** The edit that takes back one's last step, for the document `current`; it is to be submitted as it is. */
  undo(current: Delta): Delta | undefined {
    return this.step(this.undos, this.redos, current);
  }

  redo(current: Delta): Delta | undefined {
    return this.step(this.redos, this.undos, current);
  }

  private step(from: Delta[], to: Delta[], current: Delta): Delta | undefined {
    const op = from.pop();
    if (!op) return undefined;
    to.push(op.invert(current));
    this.lastLocalAt = Number.NEGATIVE_INFINITY;
    return op;
  }
}

/**
 * The stack moved past `op`, which applies to the document the newest entry applies to: each
 * entry, from the newest down, is transformed by the op, and the op by the entry, for the next.
 * An entry that has nothing left to take back is dropped.
 */
function transformStack(stack: Delta[], op: Delta): Delta[] {
  const moved: Delta[] = [];
  let other = op;
  for (let i = stack.length - 1; i >= 0; i--) {
    const entry = stack[i]!;
    // The other person's edit counts as first where both insert at one place: undo keeps it.
    const entryAfter = other.transform(entry, true);
    other = entry.transform(other, false);
    if (entryAfter.ops.length > 0) moved.push(entryAfter);
  }
  return moved.reverse();
}
