// Every action a client can take is checked, as ShareDB middleware: the message as it arrives
// (message-checks.ts: collection, access, client id, catch-up distance, rate), the op before it
// is applied (shape, access, create and delete rights), the snapshots and ops before they are
// sent, and presence both ways. The rules are the named checks of checks.ts; this file hooks
// them in. The server's own connection (access records) is trusted.
import type ShareDB from 'sharedb';
import type { SessionUser } from '@eventide/platform/auth/session.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { DOCUMENTS, type DocumentAccess } from './access.ts';
import type { ClientIds } from './client-ids.ts';
import { CollabError, collabErrors } from '../errors.ts';
import { charactersOf, inserts } from './text-ops.ts';
import type { Quotas } from './quotas.ts';
import { LRUCache } from 'lru-cache';
import { installAnswerHooks } from './answered.ts';
import { CLOSE_FORBIDDEN } from '@eventide/contract/resources/documents/collab-wire.ts';
import { checkSubmit, cursorOf, mayRead, milestoneDue, type TextOp } from './checks.ts';
import { messageChecks, type Connection, type Message } from './message-checks.ts';
import { checkMessageShape } from './message-shape.ts';
import { CatchUpBudget } from './catch-up-budget.ts';
import { OpLine } from './op-line.ts';
import { PresenceClaims } from './presence-claims.ts';

/** What the WebSocket layer hands ShareDB for each connection (backend.listen's second argument). */
export interface ConnectionInfo {
  user: SessionUser;
  /** Ends the connection with a WebSocket close code, e.g. when access is withdrawn. */
  close(code: number, reason: string): void;
  /** Whether the connection was ended (a revoked session): what it sent is no longer acted on. */
  ended(): boolean;
}

export interface ClientContext extends ConnectionInfo {
  ops: OpLine;
  catchUp: CatchUpBudget;
}

export interface GuardOptions {
  access: DocumentAccess;
  ids: ClientIds;
  log: Logger;
  opsPerSecond: number;
  /** Ops that may wait in a connection's line behind the one being handled. */
  opsWaiting: number;
  maxCatchUpOps: number;
  /** Ops one connection may be caught up by per minute, beyond its first maxCatchUpOps. */
  catchUpOpsPerMinute: number;
  /** A document's text may not grow past this many UTF-16 code units. */
  maxDocumentCharacters: number;
  milestones: { everyOps: number; everySeconds: number };
  /** Documents made and owned, and characters held, per user (quotas.ts). */
  quotas: Quotas;
  clock?: () => number;
}

/** The parts of ShareDB's agent the guards use. */
type Agent = {
  custom: { client?: ClientContext; connection?: Connection };
  clientId: string;
  src: string | null;
  stream: NodeJS.EventEmitter & { isServer?: boolean };
  /** ShareDB's own bookkeeping, absent from its type declarations. */
  subscribedDocs?: Record<string, Record<string, unknown> | undefined>;
  subscribedPresences?: Record<string, unknown>;
};

export { MAX_OPEN_DOCUMENTS } from './checks.ts';
const RECENT_DOCUMENTS = 10_000;

export function installGuards(backend: ShareDB, options: GuardOptions): { claims: PresenceClaims } {
  const { access, ids, log } = options;
  const clock = options.clock ?? Date.now;
  const claims = new PresenceClaims(backend);
  // Both remember recent documents only: a forgotten version is read from the store, and a
  // forgotten milestone time makes the next commit save one.
  /** The newest version of each document this process has committed: the catch-up check's yardstick. */
  const versions = new LRUCache<string, number>({ max: RECENT_DOCUMENTS });
  const lastMilestone = new LRUCache<string, number>({ max: RECENT_DOCUMENTS });

  const clientOf = (agent: Agent) => agent.custom.client;

  backend.use('connect', (context, next) => {
    const agent = context.agent as Agent;
    const info = context.req as ConnectionInfo | undefined;
    if (info) {
      const client: ClientContext = {
        ...info,
        ops: new OpLine({ perSecond: options.opsPerSecond, maxWaiting: options.opsWaiting }),
        catchUp: new CatchUpBudget({ capacity: options.maxCatchUpOps, perMinute: options.catchUpOpsPerMinute }),
      };
      // Built once per connection, not per message: every message of it is checked against it.
      agent.custom = { client, connection: connectionOf(agent, client) };
      agent.clientId = ids.mint(info.user.id);
    } else if (!agent.stream.isServer) {
      return next(collabErrors.forbidden('connections without a session'));
    }
    next();
  });

  const checkMessage = messageChecks({
    access,
    ids,
    maxCatchUpOps: options.maxCatchUpOps,
    catchUpOpsPerMinute: options.catchUpOpsPerMinute,
    currentVersion,
  });

  function connectionOf(agent: Agent, client: ClientContext): Connection {
    return {
      user: client.user,
      get clientId() {
        return agent.clientId;
      },
      ops: client.ops,
      catchUp: client.catchUp,
      ended: client.ended,
      openDocuments: () => agent.subscribedDocs?.[DOCUMENTS] ?? {},
      openPresenceChannels: () => agent.subscribedPresences ?? {},
      claimPresence: (message) => claims.claim(agent, message),
    };
  }

  backend.use('receive', (context, next) => {
    const { connection } = (context.agent as Agent).custom;
    if (!connection) return next();
    if (connection.ended()) return next(collabErrors.connectionEnded());
    try {
      checkMessageShape(context.data as Message);
    } catch (error) {
      return next(error);
    }
    checkMessage(connection, context.data as Message).then(() => next(), next);
  });

  async function currentVersion(id: string): Promise<number> {
    const known = versions.get(id);
    if (known !== undefined) return known;
    const snapshot = await new Promise<{ v: number }>((resolve, reject) =>
      backend.db.getSnapshot(DOCUMENTS, id, null, null, (error: Error | null, result: { v: number }) =>
        error ? reject(error) : resolve(result),
      ),
    );
    return snapshot.v;
  }

  /** Whether a document was made and then deleted: its snapshot is typeless past version 0. */
  const deleted = (id: string) =>
    new Promise<boolean>((resolve, reject) =>
      backend.db.getSnapshot(DOCUMENTS, id, null, null, (error: Error | null, snapshot: { v: number; type: unknown }) =>
        error ? reject(error) : resolve(!snapshot.type && snapshot.v > 0),
      ),
    );

  backend.use('submit', (context, next) => {
    const agent = context.agent as Agent;
    const client = clientOf(agent);
    if (!client) return next();
    // An op that was still being checked when its session was revoked is not applied.
    if (client.ended()) return next(collabErrors.connectionEnded());
    const op = context.op as TextOp;
    (async () => {
      if (op.create && context.collection === DOCUMENTS) {
        const record = await access.record(context.id);
        // A create over the WebSocket spends the user's budget of documents made, as the route does;
        // making a deleted document again makes its owner own one more (a new one is counted at its claim).
        if (!record) await options.quotas.spendCreation(client.user);
        else if (await deleted(context.id)) await options.quotas.mayOwnAnother(record.owner, client.user);
      }
      await checkSubmit(access, client.user, context.collection, context.id, op);
    })().then(() => (client.ended() ? next(collabErrors.connectionEnded()) : next()), next);
  });

  backend.use('commit', (context, next) => {
    const request = context as unknown as {
      collection: string;
      id: string;
      op: { m?: Record<string, unknown>; op?: unknown; create?: { data?: unknown } };
      snapshot: { v: number; data?: unknown; m?: { characters?: number } | null };
      saveMilestoneSnapshot: boolean | null;
      agent: Agent;
    };
    if (request.collection !== DOCUMENTS) {
      request.saveMilestoneSnapshot = false;
      return next();
    }
    // The snapshot carries its length, so that a user's characters are a sum, never a read of texts.
    const before = request.snapshot.m?.characters ?? 0;
    const after = charactersOf(request.snapshot);
    request.snapshot.m = { ...request.snapshot.m, characters: after };
    const grows = inserts(request.op) && after > before;
    if (grows && after > options.maxDocumentCharacters) return next(collabErrors.documentTooLarge(options.maxDocumentCharacters));
    const user = clientOf(request.agent)?.user;
    // Who wrote each op is kept with it (never sent to clients): the history names its authors.
    if (user) request.op.m = { ...request.op.m, user: user.id };
    const now = clock();
    const due = milestoneDue(request.snapshot.v, now, lastMilestone.get(request.id), options.milestones);
    request.saveMilestoneSnapshot = due;
    if (due) lastMilestone.set(request.id, now);
    if (!grows) return next();
    access
      .record(request.id)
      .then((record) => (record ? options.quotas.mayGrow(record.owner, before, after) : undefined))
      .then(() => next(), next);
  });

  backend.use('afterWrite', (context, next) => {
    const request = context as unknown as { collection: string; id: string; snapshot: { v: number } };
    if (request.collection === DOCUMENTS) versions.set(request.id, Math.max(versions.get(request.id) ?? 0, request.snapshot.v));
    next();
  });

  backend.use('readSnapshots', (context, next) => {
    const client = clientOf(context.agent as Agent);
    if (!client) return next();
    const snapshots = (context as unknown as { snapshots: { id: string }[] }).snapshots;
    Promise.all(snapshots.map((snapshot) => mayRead(access, client.user, context.collection, snapshot.id))).then(() => next(), next);
  });

  // Ops on their way to a client, from a subscription or a fetch: access may have been withdrawn
  // since the client subscribed. Such a client is disconnected rather than left stuck.
  backend.use('op', (context, next) => {
    const agent = context.agent as Agent;
    const client = clientOf(agent);
    if (!client) return next();
    mayRead(access, client.user, context.collection, context.id).then(
      () => next(),
      (error: unknown) => {
        if (error instanceof CollabError && error.code === 'ERR_FORBIDDEN')
          client.close(CLOSE_FORBIDDEN, 'access to a document was withdrawn');
        next(error);
      },
    );
  });

  backend.use('receivePresence', (context, next) => {
    const client = clientOf(context.agent as Agent);
    if (!client) return next();
    const presence = context.presence as { p: unknown };
    try {
      presence.p = cursorOf(presence.p, client.user);
    } catch (error) {
      return next(error as CollabError);
    }
    next();
  });

  backend.use('sendPresence', (context, next) => {
    const client = clientOf(context.agent as Agent);
    if (!client) return next();
    const presence = context.presence as { c?: string; d?: string };
    if (!presence.d) return next();
    mayRead(access, client.user, presence.c ?? DOCUMENTS, presence.d).then(() => next(), next);
  });

  installAnswerHooks(backend);
  backend.on('error', (error: Error) => log.error({ err: error }, 'sharedb error'));
  return { claims };
}
