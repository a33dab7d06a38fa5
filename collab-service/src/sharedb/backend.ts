// The ShareDB backend of the collab service: rich-text documents with presence, on the chosen
// store, behind the guards. ShareDB's own log lines go to our logger.
import ShareDB from 'sharedb';
import type { RevocationFeed } from '@eventide/stores/revocations/port.ts';
import richTextModule from 'rich-text';
import type { CollabStore } from '../store/open.ts';
import { DOCUMENTS, documentAccess, type DocumentAccess } from './access.ts';
import { historyKeeper, type HistoryKeeper } from './history.ts';
import { namedVersions, type NamedVersions } from './named-versions.ts';
import { roughSizeOf } from './text-ops.ts';
import type { HistoryLimits } from '../store/history.ts';
import { clientIds } from './client-ids.ts';
import { installGuards, type GuardOptions } from './guard.ts';
import { containMiddleware } from './contain.ts';
import type { PresenceClaims } from './presence-claims.ts';

const richText = richTextModule.type;

ShareDB.types.register(richText);

export interface CollabBackendOptions extends Omit<GuardOptions, 'access' | 'ids'> {
  store: CollabStore;
  /** Withdrawn access is published here, and heard from other processes. */
  revocations: RevocationFeed;
  /** Signs client ids (see client-ids.ts): the session secret will do. */
  secret: string;
  /** Shared with other collab processes (pubsub.ts); default: ShareDB's in-memory pub/sub. */
  pubsub?: ShareDB.PubSub;
  /** What each document keeps of its history (history.ts). */
  history: HistoryLimits;
}

export interface CollabBackend {
  backend: ShareDB;
  access: DocumentAccess;
  claims: PresenceClaims;
  history: HistoryKeeper;
  named: NamedVersions;
  close(): Promise<void>;
}

export function createCollabBackend(options: CollabBackendOptions): CollabBackend {
  const { store, log } = options;
  ShareDB.logger.setMethods({
    info: (...args: unknown[]) => log.info({ sharedb: args.map(String) }, 'sharedb'),
    warn: (...args: unknown[]) => log.warn({ sharedb: args.map(String) }, 'sharedb'),
    error: (...args: unknown[]) => log.error({ sharedb: args.map(String) }, 'sharedb'),
  });
  store.milestoneDb.on('error', (error) => log.error({ err: error }, 'saving a milestone snapshot failed'));
  const backend = new ShareDB({
    db: store.db,
    milestoneDb: store.milestoneDb,
    ...(options.pubsub ? { pubsub: options.pubsub } : {}),
    presence: true,
    // A cursor a client may no longer see is dropped quietly, not reported to that client.
    doNotForwardSendPresenceErrorsToClient: true,
    errorHandler: (error, context) =>
      log.warn({ err: error, client: (context as { agent?: { clientId?: string } }).agent?.clientId }, 'sharedb'),
  });
  // Before any hook is installed: each one fails alone (contain.ts).
  containMiddleware(backend, log);
  const access = documentAccess(backend, options.revocations, {
    ...(options.clock ? { clock: options.clock } : {}),
    mayOwnAnother: options.quotas.mayOwnAnother,
  });
  const { claims } = installGuards(backend, { ...options, access, ids: clientIds(options.secret) });
  let named: NamedVersions | undefined;
  const history = historyKeeper({
    backend,
    milestones: store.milestoneDb,
    store: store.history,
    limits: options.history,
    named: () => named,
    log,
  });
  named = namedVersions({
    backend,
    milestones: store.milestoneDb,
    store: store.history,
    keeper: history,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  backend.use('commit', (context, next) => {
    if (context.collection !== DOCUMENTS) return next();
    history.caughtUp(context.id).then(() => next(), next);
  });
  // Each commit tells the keeper what it wrote; a milestone's (the guards decide which, guard.ts) trims.
  backend.use('afterWrite', (context, next) => {
    const request = context as unknown as {
      collection: string;
      id: string;
      op: Parameters<typeof roughSizeOf>[0];
      snapshot: { v: number };
      saveMilestoneSnapshot?: boolean | null;
    };
    if (request.collection === DOCUMENTS && (request.op as { del?: unknown }).del) history.deleted(request.id, request.snapshot.v);
    else if (request.collection === DOCUMENTS) {
      history.wrote(request.id, request.snapshot.v, roughSizeOf(request.op), request.saveMilestoneSnapshot === true);
    }
    next();
  });
  return {
    backend,
    access,
    claims,
    history,
    named,
    close: async () => {
      await history.idle();
      access.close();
      return new Promise<void>((resolve, reject) => backend.close((error?: Error) => (error ? reject(error) : resolve())));
    },
  };
}
