// What each of live/operations.ts's operations takes and answers.
import type { Shape } from '../../shape.ts';
import { changesQuery } from './changes.ts';
import { eventsQuery } from './events.ts';
import type { LIVE_OPERATIONS } from './operations.ts';

export const LIVE_SHAPES = {
  streamEvents: {
    query: eventsQuery,
    answers: {
      200: {
        description:
          'a stream: id is the position, event the name, data the envelope; each message is described in /asyncapi.json (channel eventStream)',
        contentType: 'text/event-stream',
      },
    },
  },
  streamChanges: {
    query: changesQuery,
    answers: {
      200: {
        description:
          'a stream: id is a position to resume after (Last-Event-ID), event is ready, changed, deleted, reset or ended, data is JSON; each message is described in /asyncapi.json (channel changeStream) and docs/api.md#live',
        contentType: 'text/event-stream',
      },
    },
  },
} as const satisfies { [K in keyof typeof LIVE_OPERATIONS]: Shape };
