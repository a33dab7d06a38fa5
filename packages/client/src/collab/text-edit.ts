// The one edit that turns a text into another: what a keystroke, a paste or a cut does, found by
// the common start and end, as a rich-text op (retain, delete, insert). Positions count UTF-16
// code units, as a textarea does and the server expects.
export type TextEdit = ({ retain: number } | { insert: string } | { delete: number })[];

export function textEdit(before: string, after: string): TextEdit {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end])
    end++;
  const edit: TextEdit = [];
  if (start > 0) edit.push({ retain: start });
  if (before.length - start - end > 0) edit.push({ delete: before.length - start - end });
  if (after.length - start - end > 0) edit.push({ insert: after.slice(start, after.length - end) });
  return edit;
}
