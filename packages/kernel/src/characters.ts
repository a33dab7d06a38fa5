// Text length as people count it: Unicode code points, so an emoji is one, not two. One
// definition for the server's rules (api/text.ts) and the browser's (client/), without zod.
export const characters = (value: string) => [...value].length;
