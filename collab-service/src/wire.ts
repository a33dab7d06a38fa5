// The collab service's parts, wired from configuration: for its own main and for `npm start`.
// Routes go on the Koa app; the WebSocket endpoint attaches to the HTTP server once listening.
import type { Server } from 'node:http';
import ShareDB from 'sharedb';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import type { Config } from '@eventide/kernel/config.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { ReadStore } from '@eventide/stores/read-store/port.ts';
import { documentReader } from './documents.ts';
import { addCollabSections } from './personal-data.ts';
import type { PersonalDataSections } from '@eventide/runtime/export-sections.ts';
import { documentLibrary, type UserDirectory } from './library.ts';
import { collabHandlers } from './handlers.ts';
import { createCollabBackend, type CollabBackend } from './sharedb/backend.ts';
import { documentAccess } from './sharedb/access.ts';
import { openCollabPubSub } from './sharedb/pubsub.ts';
import { attachCollabSocket, type CollabSocket } from './socket/upgrade.ts';
import { openCollabStore } from './store/open.ts';
import { documentQuotas } from './sharedb/quotas.ts';
import { keptCharacters } from './sharedb/named-versions.ts';
import { limitPolicies } from '@eventide/contract/limits.ts';
import type { Metrics } from '@eventide/platform/metrics/metrics.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';

export interface Collab {
  /** The collab operations of the route table (http/mount.ts). */
  handlers: Handlers<'collab'>;
  collab: CollabBackend;
  description: string;
  /** Opens /collab on the server; call once it listens. */
  attach(server: Server): CollabSocket;
  /** Closes the WebSockets (1012, reconnect: contract/collab-wire.ts), so that an HTTP drain need not wait for them. */
  disconnect(): Promise<void>;
  /** Reads from the document store (GET /health/ready): rejects when it does not answer. */
  probe(): Promise<void>;
  /** Asks Redis, when editors' ops cross processes through it. */
  pubsubProbe?(): Promise<void>;
  /** Closes its store under it, as a connection that died would: what a supervisor must notice (supervised.ts). */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export interface CollabWiring {
  auth: OpenedAuth;
  /** The read models: who the users are, for sharing by email or name. */
  readStore: ReadStore;
  log: Logger;
  clock?: () => number;
  /** How often open connections are pinged and their sessions checked (default: COLLAB_CHECK_EVERY_SECONDS). */
  checkEveryMs?: number;
  /** Where the documents' part of a person's export is added. */
  personalData?: PersonalDataSections;
  /** Where the open connections and the applied operations are counted. */
  metrics?: Metrics;
}

export async function openCollab(
  config: Config,
  { auth, readStore, log, clock, checkEveryMs, personalData, metrics }: CollabWiring,
): Promise<Collab> {
  const store = await openCollabStore(config);
  const shared = await openCollabPubSub(config, log);
  const creation = limitPolicies(config)['document-creation'];
  const quotas = documentQuotas({
    members: store.members,
    maxOwnedDocuments: config.COLLAB_MAX_DOCUMENTS_PER_USER,
    maxCharactersPerUser: config.COLLAB_MAX_CHARACTERS_PER_USER,
    creations: {
      counter: auth.limiters({ name: 'document-creation', points: creation.points, duration: creation.duration }),
      perHour: creation.points,
      sparesAdmins: creation.sparesAdmins === true,
    },
    keptBy: (owner) => keptCharacters(store.db, store.members, owner, config.COLLAB_MAX_DOCUMENTS_PER_USER),
  });
  const collab = createCollabBackend({
    store,
    ...(shared.pubsub ? { pubsub: shared.pubsub } : {}),
    log,
    revocations: auth.revocations,
    secret: auth.sessions.keys[0]!,
    opsPerSecond: config.COLLAB_OPS_PER_SECOND,
    opsWaiting: config.COLLAB_OPS_BURST,
    maxCatchUpOps: config.COLLAB_MAX_CATCH_UP_OPS,
    catchUpOpsPerMinute: config.COLLAB_CATCH_UP_OPS_PER_MINUTE,
    maxDocumentCharacters: config.COLLAB_MAX_DOCUMENT_CHARACTERS,
    milestones: { everyOps: config.COLLAB_SNAPSHOT_EVERY_OPS, everySeconds: config.COLLAB_SNAPSHOT_EVERY_SECONDS },
    quotas,
    history: { ops: config.COLLAB_HISTORY_OPS, bytes: config.COLLAB_HISTORY_BYTES },
    ...(clock ? { clock } : {}),
  });
  const users: UserDirectory = {
    async nameOf(userId) {
      const found = await readStore.get('users', userId);
      if (!found) return undefined;
      return found.deleted ? null : String(found.fields.name);
    },
    idByEmail: async (email) => (await readStore.userByEmail(email))?.id,
  };
  const library = documentLibrary({ backend: collab.backend, access: collab.access, members: store.members, users });
  const reader = documentReader(collab.backend);
  if (personalData) addCollabSections(personalData, { members: store.members, access: collab.access, reader });
  const handlers = collabHandlers({ access: collab.access, reader, library, named: collab.named, history: store.history, quotas });
  let socket: CollabSocket | undefined;
  if (metrics) {
    metrics.gaugeOnScrape(
      'collab_websocket_connections',
      'Open WebSocket connections to collaborative editing',
      () => socket?.connections ?? 0,
    );
    collab.backend.use('afterWrite', (_context, next) => {
      metrics.collabOps.inc();
      next();
    });
  }
  return {
    handlers,
    collab,
    description: `documents in ${store.description}, editors' ops shared ${shared.description}`,
    ...(shared.probe ? { pubsubProbe: shared.probe } : {}),
    attach(server) {
      socket = attachCollabSocket(server, {
        backend: collab.backend,
        sessions: auth.sessions,
        revocations: auth.revocations,
        allowedOrigins: auth.allowedOrigins,
        maxMessageBytes: config.COLLAB_MAX_MESSAGE_BYTES,
        messagesPerSecond: config.COLLAB_MESSAGES_PER_SECOND,
        maxConnectionsPerUser: config.COLLAB_MAX_CONNECTIONS_PER_USER,
        log,
        checkEveryMs: checkEveryMs ?? config.COLLAB_CHECK_EVERY_SECONDS * 1000,
      });
      return socket;
    },
    async disconnect() {
      await socket?.close();
    },
    async probe() {
      await store.members.documentsOf('readiness-probe', 1);
    },
    kill: () => new Promise<void>((resolve) => store.db.close(() => resolve())),
    async close() {
      await socket?.close();
      await collab.close();
    },
  };
}

/**
 * The documents' part of a person's export alone, for a process that serves exports without the
 * collab service (the site process of a split deployment): the document store, read through a
 * ShareDB of its own with no editing guards, no pub/sub and no WebSocket, since it only reads.
 */
export async function openCollabSections(
  config: Config,
  { auth, personalData }: { auth: OpenedAuth; personalData: PersonalDataSections },
): Promise<{ description: string; close(): Promise<void> }> {
  const store = await openCollabStore(config);
  const backend = new ShareDB({ db: store.db, milestoneDb: store.milestoneDb });
  const access = documentAccess(backend, auth.revocations);
  addCollabSections(personalData, { members: store.members, access, reader: documentReader(backend) });
  return {
    description: `documents in ${store.description}, read for exports`,
    async close() {
      access.close();
      await new Promise<void>((resolve, reject) => backend.close((error?: Error) => (error ? reject(error) : resolve())));
    },
  };
}
