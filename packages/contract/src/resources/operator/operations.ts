// The operator's console: the followers of the log and what they parked (docs/operations.md#faults): this resource's part of the route table (operations.ts). Carries no schema code, so
// that a browser bundle (the typed client) can import it; the shapes are beside it (shapes.ts).
import type { Operation } from '../../operation.ts';

export const OPERATOR_OPERATIONS = {
  // The operator's console: the followers of the log and what they parked (docs/operations.md#faults).
  listFollowers: {
    service: 'query',
    method: 'get',
    path: '/admin/followers',
    access: 'admin',
    tag: 'operations',
    summary: 'Where each follower of the log has got, what it parked, and a rebuild under way',
  },
  followFollowers: {
    service: 'query',
    method: 'get',
    path: '/admin/followers/live',
    access: 'admin',
    tag: 'operations',
    summary: 'The same, as server-sent events, each time it changes',
  },
  listParked: {
    service: 'query',
    method: 'get',
    path: '/admin/parked',
    access: 'admin',
    tag: 'operations',
    summary: 'The events the followers parked, with why, in log order',
  },
  retryParked: {
    service: 'command',
    method: 'post',
    path: '/admin/parked/retry',
    access: 'admin',
    tag: 'operations',
    summary: 'Try parked events again once their cause is fixed: one, a follower’s, or all (recorded in the log)',
    refuses: ['not-found', 'conflict'],
  },
  skipParked: {
    service: 'command',
    method: 'post',
    path: '/admin/parked/skip',
    access: 'admin',
    tag: 'operations',
    summary: 'Skip a parked event, saying why (recorded in the log); the events behind it go on',
    refuses: ['not-found', 'conflict'],
  },
  listDeadlines: {
    service: 'query',
    method: 'get',
    path: '/admin/deadlines',
    access: 'admin',
    tag: 'operations',
    summary: 'The pending deadlines (an order’s payment), the next due first, and how many there are',
  },
  listStreams: {
    service: 'query',
    method: 'get',
    path: '/admin/streams',
    access: 'admin',
    tag: 'operations',
    summary: 'The longest streams of the log',
  },
  readStream: {
    service: 'query',
    method: 'get',
    path: '/admin/streams/{streamId}/events',
    access: 'admin',
    tag: 'operations',
    summary: 'A stream’s events, in order, with their personal fields masked',
  },
} as const satisfies Record<string, Operation>;
