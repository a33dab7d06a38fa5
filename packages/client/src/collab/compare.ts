// Two versions of a text side by side as one: what stayed, what the later one added and what it
// took away, by characters (quill-delta's diff, which is fast-diff's), for a page to mark up.
import Delta from 'quill-delta';

export interface TextChange {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export function compareTexts(before: string, after: string): TextChange[] {
  const changes: TextChange[] = [];
  const push = (kind: TextChange['kind'], text: string) => {
    const last = changes.at(-1);
    if (last?.kind === kind) last.text += text;
    else if (text) changes.push({ kind, text });
  };
  let at = 0;
  for (const op of new Delta().insert(before).diff(new Delta().insert(after)).ops) {
    if (typeof op.insert === 'string') push('added', op.insert);
    else if (op.delete) {
      push('removed', before.slice(at, at + op.delete));
      at += op.delete;
    } else if (op.retain) {
      push('same', before.slice(at, at + (op.retain as number)));
      at += op.retain as number;
    }
  }
  push('same', before.slice(at));
  return changes;
}
