// The operator's console's reads (docs/operations.md#the-console): the followers, their parked
// events, the pending deadlines, the longest streams and one stream's events. Admins only, by the route table.
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import type { ParkedEventBody } from '@eventide/contract/resources/operator/schemas.ts';
import { FOLLOWERS, type FollowerName } from '@eventide/kernel/events/followers.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { requestLogger } from '@eventide/platform/http/request-context.ts';
import { followerOf, lotOf, type ParkedEvent } from '@eventide/stores/parked/port.ts';
import type { Cursors } from '../cursor.ts';
import type { LiveDeps } from '../live/stream.ts';
import { followersState, type OperatorDeps } from './followers.ts';
import { openFollowersStream, type FollowersFeed } from './live.ts';
import { streamPage } from './stream-events.ts';

/** What the console shows of a parked event: whose it is, by follower (and generation), not by lot. */
function parkedBody({ lot, ...event }: ParkedEvent): ParkedEventBody {
  return { ...followerOf(lot), ...event };
}

/** A page of parked events runs in log order over the followers' lots: a cursor says where, by position and follower. */
const placeOf = (event: ParkedEvent) => event.position * FOLLOWERS.length + FOLLOWERS.indexOf(followerOf(event.lot).follower);
const before = (a: ParkedEvent, b: ParkedEvent) => placeOf(a) - placeOf(b);

/** What the console's reads need of the query service. */
export interface OperatorHandlerDeps {
  operator: OperatorDeps & { feed: FollowersFeed };
  cursors: Cursors;
  live: Pick<LiveDeps, 'perUser' | 'maxPerUser' | 'session'>;
  stopping: AbortSignal;
}

export function operatorHandlers(
  deps: OperatorHandlerDeps,
): Pick<Handlers<'query'>, 'listFollowers' | 'followFollowers' | 'listParked' | 'listDeadlines' | 'listStreams' | 'readStream'> {
  const { operator, cursors, live } = deps;
  return {
    async listFollowers({ ctx }) {
      ctx.body = await followersState(operator);
    },

    async followFollowers({ ctx, principal }) {
      await openFollowersStream(
        { feed: operator.feed, perUser: live.perUser, maxPerUser: live.maxPerUser, session: live.session, stopping: deps.stopping },
        ctx,
        principal.userId,
        requestLogger(ctx),
      );
    },

    async listParked({ ctx, query }) {
      const list = `parked:${query.follower ?? 'all'}`;
      const limit = query.limit ?? DEFAULT_LIMIT;
      const from = query.cursor === undefined ? undefined : cursors.decode(list, query.cursor, 'cursor');
      const generation = await operator.readStore.activeGeneration();
      const followers: readonly FollowerName[] = query.follower ? [query.follower] : FOLLOWERS;
      // Each follower's lot from where the page before ended; merged in log order, and cut to the page.
      const lots = await Promise.all(
        followers.map((follower) =>
          operator.parked.list({
            lot: lotOf(follower, generation),
            limit: limit + 1,
            ...(from === undefined ? {} : { after: { position: Math.floor(from / FOLLOWERS.length) - 1, lot: '' } }),
          }),
        ),
      );
      const merged = lots
        .flat()
        .filter((event) => from === undefined || placeOf(event) > from)
        .sort(before);
      const page = merged.slice(0, limit);
      ctx.body = {
        items: page.map(parkedBody),
        nextCursor: merged.length > limit ? cursors.encode(list, placeOf(page[page.length - 1]!)) : null,
      };
    },

    async listDeadlines({ ctx, query }) {
      const [rows, total] = await Promise.all([
        operator.deadlines.list({ limit: query.limit ?? DEFAULT_LIMIT }),
        operator.deadlines.count(),
      ]);
      const iso = (ms: number) => new Date(ms).toISOString();
      ctx.body = {
        items: rows.map(({ process, subject, next, at, deadline }) => ({
          process,
          subject,
          next,
          nextAt: iso(at),
          deadline: iso(deadline),
        })),
        total,
      };
    },

    async listStreams({ ctx, query }) {
      const streams = operator.eventStore.longestStreams;
      ctx.body = streams
        ? { items: await streams.call(operator.eventStore, query.limit ?? DEFAULT_LIMIT), available: true }
        : { items: [], available: false };
    },

    async readStream({ ctx, params, query }) {
      const list = `stream:${params.streamId}`;
      const after = query.cursor === undefined ? -1 : cursors.decode(list, query.cursor, 'cursor');
      const { items, next } = await streamPage(operator.eventStore, params.streamId, after, query.limit ?? DEFAULT_LIMIT);
      ctx.body = { items, nextCursor: next === undefined ? null : cursors.encode(list, next) };
    },
  };
}
