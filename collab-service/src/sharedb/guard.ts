// Every action a client can take is checked here, as ShareDB middleware: the message as it
// arrives (collection, access, client id, catch-up distance, rate), the op before it is applied
// (shape, access, create and delete rights), the snapshots and ops before they are sent, and
// presence both ways. The server's own connection (access records) is trusted.
import type ShareDB from 'sharedb';
import type { SessionUser } from '@eventide/shared/auth/session.ts';
import { isAdmin } from '@eventide/shared/auth/session.ts';
import type { Logger } from '@eventide/shared/log.ts';
import { DOCUMENT_ID, DOCUMENTS, type DocumentAccess } from './access.ts';
import type { ClientIds } from './client-ids.ts';
import { CollabError, collabErrors } from './errors.ts';
import { checkTextOp, growsPast } from './text-ops.ts';
import { LRUCache } from 'lru-cache';
import { installAnswerHooks, whenAnswered } from './answered.ts';
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
  opsBurst: number;
  maxCatchUpOps: number;
  /** Ops one connection may be caught up by per minute, beyond its first maxCatchUpOps. */
  catchUpOpsPerMinute: number;
  /** A document's text may not grow past this many UTF-16 code units. */
  maxDocumentCharacters: number;
  milestones: { everyOps: number; everySeconds: number };
  clock?: () => number;
}

/** The parts of ShareDB's agent the guards use. */
type Agent = {
  custom: { client?: ClientContext };
  clientId: string;
  src: string | null;
  stream: NodeJS.EventEmitter & { isServer?: boolean };
  /** ShareDB's own bookkeeping, absent from its type declarations. */
  subscribedDocs?: Record<string, Record<string, unknown> | undefined>;
  subscribedPresences?: Record<string, unknown>;
};

/** The request a client sent, as ShareDB's agent parsed it (see sharedb/lib/agent.js). */
interface Message {
  a?: string;
  c?: unknown;
  d?: unknown;
  v?: unknown;
  b?: unknown;
  ch?: unknown;
  id?: unknown;
  src?: unknown;
  pv?: unknown;
}

export const CLOSE_FORBIDDEN = 4403;
/** Documents (and their presence channels) one connection may have subscribed at once. */
export const MAX_OPEN_DOCUMENTS = 100;
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
      agent.custom = {
        client: {
          ...info,
          ops: new OpLine({ perSecond: options.opsPerSecond, burst: options.opsBurst, clock }),
          catchUp: new CatchUpBudget({ capacity: options.maxCatchUpOps, perMinute: options.catchUpOpsPerMinute, clock }),
        },
      };
      agent.clientId = ids.mint(info.user.id);
    } else if (!agent.stream.isServer) {
      return next(collabErrors.forbidden('connections without a session'));
    }
    next();
  });

  backend.use('receive', (context, next) => {
    const agent = context.agent as Agent;
    const client = clientOf(agent);
    if (!client) return next();
    if (client.ended()) return next(collabErrors.connectionEnded());
    checkMessage(agent, client, context.data as Message).then(() => next(), next);
  });

  async function checkMessage(agent: Agent, client: ClientContext, message: Message): Promise<void> {
    const { user } = client;
    switch (message.a) {
      case 'hs':
        // An old id from someone else is dropped, not refused: the client simply gets a new one.
        if (message.id != null && !ids.belongsTo(message.id, user.id)) delete message.id;
        return;
      case 'qf':
      case 'qs':
        checkCollection(message.c);
        if (!isAdmin(user)) throw collabErrors.forbidden('queries (administrators only)');
        return;
      case 'f':
      case 's':
      case 'nf':
      case 'nt':
        await mayEdit(user, checkCollection(message.c), message.d);
        if (message.a === 's') checkOpenDocuments(agent, [message.d as string]);
        if (message.a === 'f' || message.a === 's') await chargeCatchUp(client, [[message.d as string, message.v]]);
        return;
      case 'bf':
      case 'bs': {
        const collection = checkCollection(message.c);
        const requested = Array.isArray(message.b) ? message.b.map((id) => [id, null] as const) : Object.entries(message.b ?? {});
        for (const [id] of requested) await mayEdit(user, collection, id);
        if (message.a === 'bs') checkOpenDocuments(agent, requested.map(([id]) => id as string));
        await chargeCatchUp(client, requested as Array<readonly [string, unknown]>);
        return;
      }
      case 'op': {
        checkCollection(message.c);
        if (message.src != null && message.src !== agent.clientId && !ids.belongsTo(message.src, user.id)) throw collabErrors.spoofedSource();
        // In line first, so that the catch-up is counted against the version it will meet.
        const release = await client.ops.enter();
        try {
          if (client.ended()) throw collabErrors.connectionEnded();
          await chargeCatchUp(client, [[message.d as string, message.v]]);
        } catch (error) {
          release();
          throw error;
        }
        whenAnswered(message, release);
        return;
      }
      case 'p':
        await mayEdit(user, checkCollection(message.c), message.d);
        claims.claim(agent, message);
        // Presence made at an old version is transformed through every op since.
        await chargeCatchUp(client, [[message.d as string, message.v]]);
        return;
      case 'ps':
      case 'pr': {
        const document = documentOfChannel(message.ch);
        await mayEdit(user, DOCUMENTS, document);
        const presences = agent.subscribedPresences ?? {};
        if (message.a === 'ps' && presences[message.ch as string] === undefined && Object.keys(presences).length >= MAX_OPEN_DOCUMENTS) {
          throw collabErrors.tooManyOpen(MAX_OPEN_DOCUMENTS);
        }
        return;
      }
      default:
        // Unsubscribes, pings and anything unknown: ShareDB answers those itself.
        return;
    }
  }

  /** Refuses subscriptions beyond MAX_OPEN_DOCUMENTS: each holds a stream on the server. */
  function checkOpenDocuments(agent: Agent, ids: string[]): void {
    const open = agent.subscribedDocs?.[DOCUMENTS] ?? {};
    const fresh = new Set(ids.filter((id) => open[id] === undefined));
    if (Object.keys(open).length + fresh.size > MAX_OPEN_DOCUMENTS) throw collabErrors.tooManyOpen(MAX_OPEN_DOCUMENTS);
  }

  const checkCollection = (collection: unknown): string => {
    if (collection !== DOCUMENTS) throw collabErrors.unknownCollection(collection);
    return collection;
  };

  async function mayEdit(user: SessionUser, collection: string, id: unknown): Promise<void> {
    if (collection !== DOCUMENTS || typeof id !== 'string') throw collabErrors.forbidden(`document ${String(id)}`);
    if (!DOCUMENT_ID.test(id)) throw collabErrors.badId(id);
    if (!(await access.canEdit(user, id))) throw collabErrors.forbidden(`document ${id}`);
  }

  /** Counts what catching the client up from these versions costs, or refuses it (catch-up-budget.ts). */
  async function chargeCatchUp(client: ClientContext, requested: Array<readonly [string, unknown]>): Promise<void> {
    let total = 0;
    for (const [id, version] of requested) {
      if (typeof version !== 'number') continue;
      const behind = Math.max(0, (await currentVersion(id)) - version);
      if (behind > options.maxCatchUpOps) throw collabErrors.tooFarBehind(behind, options.maxCatchUpOps);
      total += behind;
    }
    if (!client.catchUp.spend(total)) throw collabErrors.catchUpSpent(total, options.catchUpOpsPerMinute);
  }

  async function currentVersion(id: string): Promise<number> {
    const known = versions.get(id);
    if (known !== undefined) return known;
    const snapshot = await new Promise<{ v: number }>((resolve, reject) =>
      backend.db.getSnapshot(DOCUMENTS, id, null, null, (error: Error | null, result: { v: number }) => (error ? reject(error) : resolve(result))),
    );
    return snapshot.v;
  }

  backend.use('submit', (context, next) => {
    const agent = context.agent as Agent;
    const client = clientOf(agent);
    if (!client) return next();
    // An op that was still being checked when its session was revoked is not applied.
    if (client.ended()) return next(collabErrors.connectionEnded());
    checkSubmit(client.user, context.collection, context.id, context.op as Parameters<typeof checkTextOp>[0]).then(
      () => (client.ended() ? next(collabErrors.connectionEnded()) : next()),
      next,
    );
  });

  async function checkSubmit(user: SessionUser, collection: string, id: string, op: Parameters<typeof checkTextOp>[0]): Promise<void> {
    checkCollection(collection);
    if (!DOCUMENT_ID.test(id)) throw collabErrors.badId(id);
    checkTextOp(op);
    if (op.create) {
      if (!(await access.claim(user, id))) throw collabErrors.forbidden(`creating ${id}: it belongs to someone else`);
    } else if (op.del) {
      if (!(await access.canManage(user, id))) throw collabErrors.forbidden(`deleting ${id} (its owner and administrators only)`);
    } else if (!(await access.canEdit(user, id))) {
      throw collabErrors.forbidden(`document ${id}`);
    }
  }

  backend.use('commit', (context, next) => {
    const request = context as unknown as {
      collection: string;
      id: string;
      op: { m?: Record<string, unknown>; op?: unknown; create?: unknown };
      snapshot: { v: number; data?: unknown };
      saveMilestoneSnapshot: boolean | null;
      agent: Agent;
    };
    if (request.collection !== DOCUMENTS) {
      request.saveMilestoneSnapshot = false;
      return next();
    }
    if (growsPast(request.op, request.snapshot, options.maxDocumentCharacters)) return next(collabErrors.documentTooLarge(options.maxDocumentCharacters));
    const user = clientOf(request.agent)?.user;
    // Who wrote each op is kept with it (never sent to clients): the history names its authors.
    if (user) request.op.m = { ...request.op.m, user: user.id };
    const now = clock();
    const since = lastMilestone.get(request.id);
    const due = request.snapshot.v % options.milestones.everyOps === 0 || since === undefined || now - since >= options.milestones.everySeconds * 1000;
    request.saveMilestoneSnapshot = due;
    if (due) lastMilestone.set(request.id, now);
    next();
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
    Promise.all(snapshots.map((snapshot) => mayEdit(client.user, context.collection, snapshot.id))).then(() => next(), next);
  });

  // Ops on their way to a client, from a subscription or a fetch: access may have been withdrawn
  // since the client subscribed. Such a client is disconnected rather than left stuck.
  backend.use('op', (context, next) => {
    const agent = context.agent as Agent;
    const client = clientOf(agent);
    if (!client) return next();
    mayEdit(client.user, context.collection, context.id).then(
      () => next(),
      (error: unknown) => {
        if (error instanceof CollabError && error.code === 'ERR_FORBIDDEN') client.close(CLOSE_FORBIDDEN, 'access to a document was withdrawn');
        next(error);
      },
    );
  });

  backend.use('receivePresence', (context, next) => {
    const client = clientOf(context.agent as Agent);
    if (!client) return next();
    const presence = context.presence as { p: unknown };
    if (presence.p === null) return next();
    const { index, length } = (presence.p ?? {}) as { index?: unknown; length?: unknown };
    if (!Number.isSafeInteger(index) || (index as number) < 0 || !Number.isSafeInteger(length) || (length as number) < 0) {
      return next(new CollabError('ERR_BAD_PRESENCE', 'presence is { index, length }: two integers of 0 or more'));
    }
    // Only the fields the editor needs, and the user as the server knows them: no one can label
    // their cursor with someone else's name.
    presence.p = { index, length, user: client.user.id };
    next();
  });

  backend.use('sendPresence', (context, next) => {
    const client = clientOf(context.agent as Agent);
    if (!client) return next();
    const presence = context.presence as { c?: string; d?: string };
    if (!presence.d) return next();
    mayEdit(client.user, presence.c ?? DOCUMENTS, presence.d).then(() => next(), next);
  });

  installAnswerHooks(backend);
  backend.on('error', (error: Error) => log.error({ err: error }, 'sharedb error'));
  return { claims };
}

/** Doc presence channels are `<collection>.<id>`; only documents' channels exist here. */
function documentOfChannel(channel: unknown): string | undefined {
  if (typeof channel !== 'string' || !channel.startsWith(`${DOCUMENTS}.`)) return undefined;
  return channel.slice(DOCUMENTS.length + 1);
}

