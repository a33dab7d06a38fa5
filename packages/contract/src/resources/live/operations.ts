// The public events for subscribers without Kafka, and the read models moving live (docs/api.md#live): this resource's part of the route table (operations.ts). Carries no schema code, so
// that a browser bundle (the typed client) can import it; the shapes are beside it (shapes.ts).
import type { Operation } from '../../operation.ts';

export const LIVE_OPERATIONS = {
  // The public events, for subscribers without Kafka.
  streamEvents: {
    service: 'query',
    method: 'get',
    path: '/events',
    access: 'admin',
    tag: 'events',
    summary: 'The public events as server-sent events, from a position (docs/events.md)',
    headers: ['Last-Event-ID'],
  },
  // The read models moving live, for pages that show them (docs/api.md#live).
  streamChanges: {
    service: 'query',
    method: 'get',
    path: '/changes',
    access: 'signed-in',
    tag: 'live',
    summary: 'Changes to the orders, products and users you may read, as server-sent events, as they reach the read models',
    headers: ['Last-Event-ID'],
    // Opening one follows the session and joins the hub; a resume's catch-up is charged apart.
    readCost: 5,
  },
} as const satisfies Record<string, Operation>;
