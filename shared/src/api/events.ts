// GET /events's query: which of the nine names, and from which position (docs/events.md).
import { z } from 'zod';

export const eventPosition = z.string().regex(/^\d{1,15}$/, 'must be a position as given in an event id');
export const eventsQuery = z.strictObject({ types: z.string().max(500).optional(), after: eventPosition.optional() });
