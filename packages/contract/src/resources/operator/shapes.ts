// What each of operator/operations.ts's operations takes and answers.
import { cursorPageOf } from '../../common.ts';
import type { Shape } from '../../shape.ts';
import type { OPERATOR_OPERATIONS } from './operations.ts';
import {
  deadlinesBody,
  deadlinesQuery,
  followersBody,
  parkedEventBody,
  parkedQuery,
  requestedBody,
  retryParkedBody,
  skipParkedBody,
  streamEventsBody,
  streamEventsQuery,
  streamId,
  streamsBody,
  streamsQuery,
} from './schemas.ts';

export const OPERATOR_SHAPES = {
  listFollowers: { answers: { 200: { description: 'each follower, and the head of the log', body: followersBody } } },
  followFollowers: {
    answers: {
      200: {
        description: 'a stream: event is followers, data is what GET /admin/followers answers, sent when it changes',
        contentType: 'text/event-stream',
      },
    },
  },
  listParked: { query: parkedQuery, answers: { 200: { description: 'a page of parked events', body: cursorPageOf(parkedEventBody) } } },
  retryParked: {
    body: retryParkedBody,
    answers: { 202: { description: 'noted: the followers try them within a second or two', body: requestedBody } },
  },
  skipParked: {
    body: skipParkedBody,
    answers: { 202: { description: 'noted, and recorded in the log: its follower skips it within a second or two', body: requestedBody } },
  },
  listDeadlines: { query: deadlinesQuery, answers: { 200: { description: 'the pending deadlines', body: deadlinesBody } } },
  listStreams: { query: streamsQuery, answers: { 200: { description: 'the longest streams', body: streamsBody } } },
  readStream: {
    params: { streamId: { schema: streamId, names: 'stream' } },
    query: streamEventsQuery,
    answers: { 200: { description: 'a page of its events, oldest first', body: streamEventsBody } },
  },
} as const satisfies { [K in keyof typeof OPERATOR_OPERATIONS]: Shape };
