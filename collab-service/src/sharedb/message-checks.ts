// What each client request must pass before ShareDB acts on it, by ShareDB's action name. The
// server's own connection (access records) never comes here (guard.ts).
import { isAdmin, type SessionUser } from '@eventide/platform/auth/session.ts';
import { DOCUMENTS, type DocumentAccess } from './access.ts';
import { whenAnswered } from './answered.ts';
import type { CatchUpBudget } from './catch-up-budget.ts';
import {
  ACTIONS,
  bulkRequested,
  catchUpCost,
  checkCollection,
  checkOpenDocuments,
  checkPresenceChannels,
  checkSource,
  documentOfChannel,
  mayRead,
} from './checks.ts';
import type { ClientIds } from './client-ids.ts';
import { collabErrors } from '../errors.ts';
import type { OpLine } from './op-line.ts';

/** The request a client sent, as ShareDB's agent parsed it (see sharedb/lib/agent.js). */
export interface Message {
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

/** What the checks see of a connection. */
export interface Connection {
  user: SessionUser;
  clientId: string;
  ops: OpLine;
  catchUp: CatchUpBudget;
  ended(): boolean;
  /** The connection's subscriptions: documents by id, presence channels by name. */
  openDocuments(): Record<string, unknown>;
  openPresenceChannels(): Record<string, unknown>;
  /** Claims the message's presence id for this connection, or throws ERR_PRESENCE_TAKEN (presence-claims.ts). */
  claimPresence(message: Message): void;
}

export interface MessageCheckDeps {
  access: DocumentAccess;
  ids: ClientIds;
  maxCatchUpOps: number;
  catchUpOpsPerMinute: number;
  /** The document's newest version: the yardstick of how far behind a client is. */
  currentVersion(id: string): Promise<number>;
}

export function messageChecks(deps: MessageCheckDeps) {
  const { access, ids } = deps;

  /** Counts what catching the client up from these versions costs, or refuses it (catch-up-budget.ts). */
  async function chargeCatchUp(connection: Connection, requested: Array<readonly [string, unknown]>): Promise<void> {
    const total = await catchUpCost(requested, deps.currentVersion, deps.maxCatchUpOps);
    if (!(await connection.catchUp.spend(total))) throw collabErrors.catchUpSpent(total, deps.catchUpOpsPerMinute);
  }

  /** An old id from someone else is dropped, not refused: the client simply gets a new one. */
  function handshake(connection: Connection, message: Message): void {
    if (message.id != null && !ids.belongsTo(message.id, connection.user.id)) delete message.id;
  }

  function query(connection: Connection, message: Message): void {
    checkCollection(message.c);
    if (!isAdmin(connection.user)) throw collabErrors.forbidden('queries (administrators only)');
  }

  async function document(connection: Connection, message: Message): Promise<void> {
    await mayRead(access, connection.user, checkCollection(message.c), message.d);
    if (message.a === ACTIONS.subscribe) checkOpenDocuments(connection.openDocuments(), [message.d as string]);
    if (message.a === ACTIONS.fetch || message.a === ACTIONS.subscribe) await chargeCatchUp(connection, [[message.d as string, message.v]]);
  }

  async function bulk(connection: Connection, message: Message): Promise<void> {
    const collection = checkCollection(message.c);
    const requested = bulkRequested(message.b);
    for (const [id] of requested) await mayRead(access, connection.user, collection, id);
    if (message.a === ACTIONS.bulkSubscribe)
      checkOpenDocuments(
        connection.openDocuments(),
        requested.map(([id]) => id),
      );
    await chargeCatchUp(connection, requested);
  }

  /** Ops wait in the connection's line; the place is given back once ShareDB has answered. */
  async function op(connection: Connection, message: Message): Promise<void> {
    checkCollection(message.c);
    checkSource(message.src, connection.clientId, connection.user, ids);
    // In line first, so that the catch-up is counted against the version it will meet.
    const release = await connection.ops.enter();
    try {
      if (connection.ended()) throw collabErrors.connectionEnded();
      await chargeCatchUp(connection, [[message.d as string, message.v]]);
    } catch (error) {
      release();
      throw error;
    }
    whenAnswered(message, release);
  }

  /** A cursor made at an old version is transformed through every op since. */
  async function presence(connection: Connection, message: Message): Promise<void> {
    await mayRead(access, connection.user, checkCollection(message.c), message.d);
    connection.claimPresence(message);
    await chargeCatchUp(connection, [[message.d as string, message.v]]);
  }

  async function presenceChannel(connection: Connection, message: Message): Promise<void> {
    await mayRead(access, connection.user, DOCUMENTS, documentOfChannel(message.ch));
    if (message.a === ACTIONS.presenceSubscribe) checkPresenceChannels(connection.openPresenceChannels(), message.ch);
  }

  return async function check(connection: Connection, message: Message): Promise<void> {
    switch (message.a) {
      case ACTIONS.handshake:
        return handshake(connection, message);
      case ACTIONS.queryFetch:
      case ACTIONS.querySubscribe:
        return query(connection, message);
      case ACTIONS.fetch:
      case ACTIONS.subscribe:
      case ACTIONS.snapshotFetch:
      case ACTIONS.snapshotFetchByTimestamp:
        return document(connection, message);
      case ACTIONS.bulkFetch:
      case ACTIONS.bulkSubscribe:
        return bulk(connection, message);
      case ACTIONS.op:
        return op(connection, message);
      case ACTIONS.presence:
        return presence(connection, message);
      case ACTIONS.presenceSubscribe:
      case ACTIONS.presenceRequest:
        return presenceChannel(connection, message);
      default:
        // Unsubscribes, pings and anything unknown: ShareDB answers those itself.
        return;
    }
  };
}
