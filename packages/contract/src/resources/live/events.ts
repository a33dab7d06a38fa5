// GET /events's query: which of the nine names, and from which position (docs/events.md).
import { z } from 'zod';

export const eventPosition = z.string().regex(/^\d{1,15}$/, 'must be a position as given in an event id');
/** `after=now`: only events appended from now on (Last-Event-ID, when sent, wins). */
export const eventsQuery = z.strictObject({
  types: z.string().max(500).optional(),
  after: z.union([eventPosition, z.literal('now')]).optional(),
});
