// The plain text of a rich-text document: its string inserts, in order. Pure, so the browser
// bundle (web/editor.ts) shares it with the server and the Node client.
export const plainText = (data: unknown): string =>
  ((data as { ops?: { insert?: unknown }[] } | undefined)?.ops ?? [])
    .map((op) => (typeof op.insert === 'string' ? op.insert : ''))
    .join('');
