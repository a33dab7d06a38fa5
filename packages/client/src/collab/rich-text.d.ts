// Types for the rich-text OT type, which ships none: only what the editors and the collab service use.
declare module 'rich-text' {
  // CommonJS: Node's ESM loader sees only a default export.
  const richText: { type: RichText };
  export default richText;
  interface RichText {
    name: string;
    uri: string;
    create(data?: unknown): { ops: unknown[] };
    apply(snapshot: unknown, op: unknown): { ops: unknown[] };
    transform(op: unknown, other: unknown, side: 'left' | 'right'): unknown;
    transformCursor(cursor: number, op: unknown, isOwnOp: boolean): number;
    transformPresence<T>(presence: T, op: unknown, isOwnOp: boolean): T;
    compose(op: unknown, other: unknown): unknown;
  }
}
