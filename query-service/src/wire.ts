// Builds the query service's dependencies from the open read models: cursor secret, progress, limits,
// and the live streams' follower.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { ReadModels } from '@eventide/stores/read-models/open.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { loadOrCreateSecret } from '@eventide/kernel/secret.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import { UserConnections } from '@eventide/platform/user-connections.ts';
import { cursors } from './cursor.ts';
import { UnreadLedger } from './live/unread.ts';
import { ChangeHub } from './live/hub.ts';
import { liveResources } from './live/resources.ts';
import { progressOf, type ProjectorSignal } from './consistency.ts';
import type { QueryDeps } from './handlers.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { DeadlineSchedule } from '@eventide/stores/deadlines/port.ts';
import type { ImageStore } from '@eventide/stores/image-store/port.ts';
import type { WebhookStore } from '@eventide/stores/webhooks/port.ts';
import type { Clock } from '@eventide/kernel/clock.ts';
import { busKindOf } from '@eventide/stores/event-bus/open.ts';
import { followersState } from './operator/followers.ts';
import { FollowersFeed } from './operator/live.ts';

export function queryDeps(
  config: Config,
  { store: readStore, search: productSearch }: Pick<ReadModels, 'store' | 'search'>,
  options: {
    projected?: ProjectorSignal;
    eventStore: EventStore;
    /** What the followers parked, for the operator's console. */
    parked: ParkedEvents;
    /** The pending deadlines, for the operator's console. */
    deadlines: DeadlineSchedule;
    /** The webhooks, for their admin's reads. */
    webhooks: WebhookStore;
    /** Products' pictures, served at /images. */
    images: ImageStore;
    clock: Clock;
    stopping: AbortSignal;
    auth: Pick<OpenedAuth, 'sessions' | 'revocations'>;
    log: Logger;
  },
): QueryDeps {
  const { eventStore, stopping, auth, log } = options;
  const secret = loadOrCreateSecret(config.CURSOR_SECRET, join(config.dataDir, 'cursor-secret'));
  const progress = progressOf(readStore, options.projected, stopping);
  const session = { sessions: auth.sessions, revocations: auth.revocations };
  const operator = { eventStore, readStore, parked: options.parked, deadlines: options.deadlines, busKind: busKindOf(config) };
  return {
    operator: { ...operator, feed: new FollowersFeed(() => followersState(operator), log) },
    webhooks: { webhooks: options.webhooks, clock: options.clock, maxEndpoints: config.WEBHOOK_MAX_ENDPOINTS },
    readStore,
    productSearch,
    images: options.images,
    cursors: cursors(secret),
    progress,
    eventStore,
    stopping,
    session,
    live: {
      hub: new ChangeHub({ eventStore, readStore, progress, stopping, log }),
      resources: liveResources(readStore),
      perUser: new UserConnections(config.LIVE_STREAMS_PER_USER),
      maxPerUser: config.LIVE_STREAMS_PER_USER,
      session,
      eventStore,
      readStore,
      stopping,
      unread: new UnreadLedger(config.LIVE_UNREAD_BYTES),
    },
  };
}
