// The collab WebSocket endpoint (path /collab): who may open it, and what keeps it honest while
// open. The upgrade needs the same session cookie as the REST API and a page of an allowed
// origin (a cross-site page could otherwise open it with the user's cookie). A revoked session
// (sign-out, a password change, a deleted user, a changed role) or a withdrawn document ends
// its connections at once, whichever process it was revoked on (the revocation feed). Open
// connections are also pinged, so a dead network is noticed and its cursors withdrawn, and
// their session is checked again at the same interval, which catches timeouts.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type ShareDB from 'sharedb';
import type { Revocation, RevocationFeed } from '@eventide/stores/revocations/port.ts';
import { sessionOfUpgrade, type SessionOptions, type SessionUser } from '@eventide/platform/auth/session.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { endWithProblem } from '@eventide/platform/http/client-errors.ts';
import type { ConnectionInfo } from '../sharedb/guard.ts';
import { DOCUMENTS } from '../sharedb/access.ts';
import { WebSocketJsonStream } from './json-stream.ts';
import { CLOSE_FORBIDDEN, CLOSE_RESTARTING, CLOSE_SESSION_ENDED, COLLAB_PATH } from '@eventide/contract/resources/documents/collab-wire.ts';
import { UserConnections } from '@eventide/platform/user-connections.ts';

/** Messages of one connection being handled at once before its reading pauses. */
const MAX_IN_FLIGHT = 16;

export interface CollabSocketOptions {
  backend: ShareDB;
  sessions: SessionOptions;
  revocations: RevocationFeed;
  /** Origins besides the request's own whose pages may connect (PUBLIC_ORIGIN, ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  maxMessageBytes: number;
  /** Messages read per second per connection; beyond it, reading waits (inflow.ts). */
  messagesPerSecond: number;
  /** Connections one user may hold on this process. */
  maxConnectionsPerUser: number;
  log: Logger;
  /** How often connections are pinged and their sessions checked again. */
  checkEveryMs?: number;
}

export interface CollabSocket {
  readonly connections: number;
  close(): Promise<void>;
}

interface Live {
  socket: WebSocket;
  request: IncomingMessage;
  user: SessionUser;
  /** The session's store key, as revocations name it. */
  session: string;
  /** ShareDB's agent: which documents and presence channels the connection has open. */
  agent: { subscribedDocs: Record<string, Record<string, unknown>>; subscribedPresences: Record<string, unknown> };
  alive: boolean;
  ended: boolean;
}

export function attachCollabSocket(server: Server, options: CollabSocketOptions): CollabSocket {
  const { backend, sessions, log } = options;
  const allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes, perMessageDeflate: false });
  const live = new Set<Live>();
  const perUser = new UserConnections(options.maxConnectionsPerUser);
  let closed = false;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://host').pathname !== COLLAB_PATH)
      return refuse(socket, 404, 'not-found', 'Not found', `no WebSocket endpoint here: use ${COLLAB_PATH}`);
    const origin = request.headers.origin;
    if (origin && origin !== ownOrigin(request) && !allowed.has(origin)) {
      return refuse(socket, 403, 'forbidden', 'Forbidden', `pages from ${origin === 'null' ? 'an opaque origin' : origin} may not connect`);
    }
    sessionOfUpgrade(request, sessions).then(
      (session) => {
        if (!session)
          return refuse(socket, 401, 'unauthenticated', 'Not signed in', 'sign in first: the connection needs the session cookie');
        const release = perUser.take(session.user.id);
        if (!release) {
          const limit = options.maxConnectionsPerUser;
          return refuse(
            socket,
            429,
            'rate-limited',
            'Too many requests',
            `at most ${limit} collaborative editing connections per user at once; close one first`,
          );
        }
        // A handshake ws refuses never calls back: the place is given back when that socket closes.
        socket.once('close', release);
        wss.handleUpgrade(request, socket, head, (ws) => {
          ws.once('close', release);
          accept(ws, request, session.user, session.key);
        });
      },
      (error: unknown) => {
        log.error({ err: error }, 'collab upgrade failed');
        refuse(socket, 503, 'unavailable', 'Service unavailable', 'the session store did not answer; try again');
      },
    );
  };
  server.on('upgrade', onUpgrade);

  function accept(ws: WebSocket, request: IncomingMessage, user: SessionUser, session: string): void {
    const entry = { socket: ws, request, user, session, alive: true, ended: false } as Live;
    live.add(entry);
    ws.on('pong', () => (entry.alive = true));
    ws.on('close', (code) => {
      live.delete(entry);
      log.debug({ user: user.id, code }, 'collab connection closed');
    });
    const info: ConnectionInfo = { user, close: (code, reason) => end(entry, code, reason), ended: () => entry.ended };
    const stream = new WebSocketJsonStream(
      ws,
      { perSecond: options.messagesPerSecond, maxInFlight: MAX_IN_FLIGHT },
      (error) =>
        log.error(
          { user: user.id, storeError: { code: error.code, message: error.message } },
          'collab: a request failed in the store; the editor was told ERR_UNAVAILABLE',
        ),
      (error) => log.error({ err: error, user: user.id }, 'collab: handling a message failed; the editor was told ERR_INTERNAL'),
    );
    entry.agent = backend.listen(stream, info) as unknown as Live['agent'];
    log.debug({ user: user.id }, 'collab connection opened');
  }

  /** Ends a connection: nothing it sent after this is acted on (json-stream.ts, guard.ts). */
  function end(entry: Live, code: number, reason: string): void {
    entry.ended = true;
    entry.socket.close(code, reason);
  }

  const stopListening = options.revocations.subscribe((revocation) => {
    for (const entry of live) {
      const code = closeCodeFor(revocation, entry);
      if (code === CLOSE_SESSION_ENDED) end(entry, code, 'the session ended: sign in again');
      else if (code === CLOSE_FORBIDDEN) end(entry, code, 'access to a document was withdrawn');
    }
  });

  const timer = setInterval(() => {
    for (const entry of live) {
      if (!entry.alive) {
        entry.socket.terminate();
        continue;
      }
      entry.alive = false;
      entry.socket.ping();
      sessionOfUpgrade(entry.request, sessions).then(
        (session) => {
          if (session?.user.id !== entry.user.id) end(entry, CLOSE_SESSION_ENDED, 'the session ended: sign in again');
        },
        (error: unknown) => log.warn({ err: error }, 'collab session check failed; the connection stays open'),
      );
    }
  }, options.checkEveryMs ?? 30_000);
  timer.unref();

  return {
    get connections() {
      return live.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      stopListening();
      server.off('upgrade', onUpgrade);
      for (const entry of live) entry.socket.close(CLOSE_RESTARTING, 'the server is restarting: reconnect');
      // Clients answer a close at once; one that does not is cut after a second, not ws's 30 s.
      const deadline = Date.now() + 1_000;
      while (live.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      for (const entry of live) entry.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The close code a revocation means for a connection, or undefined when it does not concern it. */
function closeCodeFor(revocation: Revocation, entry: Live): number | undefined {
  switch (revocation.type) {
    case 'session':
      return revocation.session === entry.session ? CLOSE_SESSION_ENDED : undefined;
    case 'user':
      return revocation.userId === entry.user.id ? CLOSE_SESSION_ENDED : undefined;
    case 'document-access': {
      if (revocation.userId !== entry.user.id) return undefined;
      const open =
        entry.agent.subscribedDocs[DOCUMENTS]?.[revocation.document] !== undefined ||
        entry.agent.subscribedPresences[`${DOCUMENTS}.${revocation.document}`] !== undefined;
      return open ? CLOSE_FORBIDDEN : undefined;
    }
  }
}

function ownOrigin(request: IncomingMessage): string {
  const secure = (request.socket as { encrypted?: boolean }).encrypted === true;
  return `${secure ? 'https' : 'http'}://${request.headers.host ?? ''}`;
}

/** An upgrade refused with the same problem+json body the REST API would send. */
function refuse(socket: Duplex, status: number, type: string, title: string, detail: string): void {
  endWithProblem(socket, { type: `/problems/${type}`, title, status, detail, instance: COLLAB_PATH });
}
