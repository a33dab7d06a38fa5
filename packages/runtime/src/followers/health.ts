// What a process that runs followers says of them: GET /health/ready fails, saying why, while any
// has an event parked (parking.ts) or has events waiting and has not moved for
// READY_MAX_STALL_SECONDS; the metrics count parked events per follower. Whether the followers run
// on this thread or on one of their own, the same checks read the same stores. The projector's
// process runs three of them, the command service's the deadlines (command-service/src/deadlines).
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Metrics } from '@eventide/platform/metrics/metrics.ts';
import type { Probe } from '../readiness.ts';
import { lotOf, type ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { FollowerName } from '@eventide/kernel/events/followers.ts';

/** Where the projector's process's followers have got, as the operator's GET /health says it (METRICS_PORT). */
export type Positions = {
  projectedTo: number;
  publishedTo: number;
  forgottenTo: number;
  webhooksAt: number;
};

/** The name of each follower's position on GET /health. */
export const POSITION_OF = {
  projector: 'projectedTo',
  publisher: 'publishedTo',
  forgetter: 'forgottenTo',
  webhooks: 'webhooksAt',
  deadlines: 'deadlinesAt',
} as const satisfies Record<FollowerName, string>;

export interface FollowersHealth {
  /** The followers this process runs. */
  followers: readonly FollowerName[];
  events: EventStore;
  parked: ParkedEvents;
  /** The generation of the read models served: only its lot counts for the projector. */
  activeGeneration(): Promise<number>;
  /** Where the followers are (by POSITION_OF), or why they are not running (their thread restarting). */
  positions(): Partial<Record<string, number>> | { down: string };
  maxStallSeconds: number;
  clock?: () => number;
}

/** The lots that count now: each follower's, and the projector's of the served generation. */
async function currentLots(health: FollowersHealth): Promise<Map<FollowerName, string>> {
  const generation = await health.activeGeneration();
  return new Map(health.followers.map((follower) => [follower, lotOf(follower, generation)]));
}

/** Parked events per follower, in the lots that count now. */
async function parkedPerFollower(health: FollowersHealth) {
  const [lots, counts] = await Promise.all([currentLots(health), health.parked.counts()]);
  return health.followers.map((follower) => ({ follower, counts: counts.get(lots.get(follower)!) }));
}

export function followersProbe(health: FollowersHealth): Probe {
  const clock = health.clock ?? Date.now;
  /** Per follower: the position last seen with events waiting, and since when it has been there. */
  const waiting = new Map<FollowerName, { position: number; since: number }>();
  return {
    name: 'followers',
    async check() {
      const positions = health.positions();
      if (typeof positions.down === 'string') return { observedValue: 0, observedUnit: 'parked events', fail: positions.down };
      const [head, parked] = await Promise.all([health.events.head(), parkedPerFollower(health)]);
      const failures: string[] = [];
      let total = 0;
      for (const { follower, counts } of parked) {
        if (!counts || counts.parked + counts.held === 0) continue;
        total += counts.parked + counts.held;
        const oldest = counts.oldest;
        const events = (n: number) => `${n} event${n === 1 ? '' : 's'}`;
        const held = counts.held > 0 ? ` (${events(counts.held)} more wait behind)` : '';
        const why = oldest ? `, the first ${oldest.type} at position ${oldest.position}, because ${oldest.reason}` : '';
        failures.push(`the ${follower} parked ${events(counts.parked)}${held}${why}`);
      }
      for (const follower of health.followers) {
        const position = (positions as Partial<Record<string, number>>)[POSITION_OF[follower]];
        if (position === undefined) continue;
        const seen = waiting.get(follower);
        if (position >= head) waiting.delete(follower);
        else if (seen?.position !== position) waiting.set(follower, { position, since: clock() });
        else if (clock() - seen.since > health.maxStallSeconds * 1000) {
          failures.push(
            `the ${follower} has not moved from position ${position} for ${Math.round((clock() - seen.since) / 1000)} s with ${head - position} events waiting`,
          );
        }
      }
      return {
        observedValue: total,
        observedUnit: 'parked events',
        ...(failures.length > 0 ? { fail: `${failures.join('; ')} (docs/operations.md#faults)` } : {}),
      };
    },
  };
}

/** follower_parked_events{follower}: the events each follower parked or holds, in its current lot. */
export function parkedGauge(metrics: Metrics, health: Pick<FollowersHealth, 'followers' | 'parked' | 'activeGeneration'>): void {
  metrics.labeledGaugeOnScrape(
    'follower_parked_events',
    'Events a follower of the log parked, or holds behind them',
    'follower',
    async () => {
      const parked = await parkedPerFollower(health as FollowersHealth);
      return Object.fromEntries(parked.map(({ follower, counts }) => [follower, (counts?.parked ?? 0) + (counts?.held ?? 0)]));
    },
  );
}
