// Undo of one's own edits while others edit: it takes back exactly one's own text, where it is
// now, keeps everyone else's, and redo puts it back.
import Delta from 'quill-delta';
import { describe, expect, it } from 'vitest';
import { OwnUndo } from './own-undo.ts';

const text = (doc: Delta) => doc.ops.map((op) => (typeof op.insert === 'string' ? op.insert : '')).join('');

/** A document edited by "me" (recorded) and "them" (remote), as the editor page sees both. */
function session(initial: string) {
  let now = 0;
  let doc = new Delta().insert(initial);
  const undo = new OwnUndo({ clock: () => now });
  return {
    undo,
    /** My edit; a pause of 5 s after it, unless typed on quickly (100 ms): then the next joins its step. */
    mine(op: Delta, pauseMs = 5_000) {
      undo.local(op, doc);
      doc = doc.compose(op);
      now += pauseMs;
    },
    theirs(op: Delta) {
      undo.remote(op);
      doc = doc.compose(op);
    },
    /** Runs an undo or redo as the page does: the op is applied as one's own, not recorded as a new step. */
    step(which: 'undo' | 'redo') {
      const op = undo[which](doc);
      if (op) doc = doc.compose(op);
      return op;
    },
    get text() {
      return text(doc);
    },
  };
}

describe('undo of one’s own edits', () => {
  it('takes back my insert, where it is now, and keeps the text another person typed before it', () => {
    const s = session('Hello world');
    s.mine(new Delta().retain(5).insert(' dear'));
    s.theirs(new Delta().insert('Oh! '));
    expect(s.text).toBe('Oh! Hello dear world');
    s.step('undo');
    expect(s.text).toBe('Oh! Hello world');
    s.step('redo');
    expect(s.text).toBe('Oh! Hello dear world');
  });

  it('brings back what I deleted, even after someone typed inside the same sentence', () => {
    const s = session('one two three');
    s.mine(new Delta().retain(3).delete(4));
    expect(s.text).toBe('one three');
    s.theirs(new Delta().retain(9).insert('!'));
    s.step('undo');
    expect(s.text).toBe('one two three!');
  });

  it('never undoes another person’s edit: with nothing of mine left, undo does nothing', () => {
    const s = session('abc');
    s.theirs(new Delta().insert('X'));
    expect(s.undo.canUndo).toBe(false);
    expect(s.step('undo')).toBeUndefined();
    expect(s.text).toBe('Xabc');
  });

  it('undoes keystrokes typed together as one step, and each pause as its own', () => {
    const s = session('');
    s.mine(new Delta().insert('a'), 100);
    s.mine(new Delta().retain(1).insert('b'), 100);
    s.mine(new Delta().retain(2).insert('c'));
    s.mine(new Delta().retain(3).insert(' d'));
    expect(s.text).toBe('abc d');
    s.step('undo');
    expect(s.text).toBe('abc');
    s.step('undo');
    expect(s.text).toBe('');
    s.step('redo');
    expect(s.text).toBe('abc');
  });

  it('forgets what is to be redone once I type something new', () => {
    const s = session('x');
    s.mine(new Delta().retain(1).insert('y'));
    s.step('undo');
    expect(s.undo.canRedo).toBe(true);
    s.mine(new Delta().insert('z'));
    expect(s.undo.canRedo).toBe(false);
  });

  it('drops a step whose text someone else deleted: there is nothing left to take back', () => {
    const s = session('keep');
    s.mine(new Delta().retain(4).insert(' mine'));
    s.theirs(new Delta().retain(4).delete(5));
    expect(s.text).toBe('keep');
    expect(s.undo.canUndo).toBe(false);
  });
});
