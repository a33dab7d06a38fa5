// Bounds on what connections a client can hold: how long it may take to send a request, how long
// it may take nothing of an answer (progress.ts), how long an idle keep-alive connection stays,
// how many connections there are in all, and how many come from one address, so that one address
// holding thousands of slow connections cannot take the descriptors everyone else needs; and near
// the cap in all, which connections give their place to a newcomer (shedUnderPressure).
// docs/operations.md#bounds lists the knobs.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../auth/client-address.ts';
import { dropStalledReaders } from './progress.ts';
import { ANSWERED_THROUGH, countedElsewhere } from './passed-on.ts';
import type { Config } from '@eventide/kernel/config.ts';

export type ConnectionBounds = Pick<
  Config,
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
  | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'
  | 'HTTP_SEND_TIMEOUT_MS'
  | 'HTTP_MAX_CONNECTIONS'
  | 'HTTP_MAX_CONNECTIONS_PER_ADDRESS'
  | 'TRUST_PROXY_HOPS'
>;

/**
 * Descriptors kept back from connections for everything else the process opens: its stores'
 * files and sockets (SQLite and its WAL, MongoDB's and Redis's pools, Kafka's brokers), logs and
 * the static files it reads at start. Measured: `npm start` holds 53 with no client.
 */
export const DESCRIPTOR_RESERVE = 256;

/** The process's limit on open descriptors (its soft RLIMIT_NOFILE), where the system says it. */
export function descriptorLimit(limits = '/proc/self/limits'): number | undefined {
  try {
    const soft = /^Max open files\s+(\d+)/m.exec(readFileSync(limits, 'utf8'))?.[1];
    return soft === undefined ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

/**
 * How many connections the server takes in all: as configured, but never so many that they leave
 * fewer than DESCRIPTOR_RESERVE descriptors for the rest (a store that cannot open a file fails
 * every client, not only the one too many).
 */
export function connectionCap(configured: number, limit = descriptorLimit()): number {
  if (limit === undefined) return configured;
  return Math.max(1, Math.min(configured, limit - DESCRIPTOR_RESERVE));
}

/** An HTTP server with the bounds. */
export function boundedServer(listener: RequestListener, bounds: ConnectionBounds): Server {
  const server = createServer(
    {
      headersTimeout: bounds.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: bounds.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: bounds.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // Node looks for requests past their time this often (30 s by default): a tenth of the
      // headers' time, so that a slow connection goes close to its bound.
      connectionsCheckingInterval: Math.max(250, Math.floor(bounds.HTTP_HEADERS_TIMEOUT_MS / 10)),
    },
    listener,
  );
  // A client may end its side once it has sent a request (an HTTP/1.0 client, `nc`, one that writes
  // a whole body before it reads) and still wait for the answer. Node's server closes such a
  // connection at the client's end, before the answer is written, unless this is set (http.Server
  // makes its sockets half-open and decides by this flag): the answer was lost whenever it took
  // longer than the end took to arrive, a write's commit or a request thread's hand-over. The
  // connection still closes once answered, and the request's own timeouts still bound it.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  boundConnections(server, bounds);
  dropStalledReaders(server, bounds.HTTP_SEND_TIMEOUT_MS);
  return server;
}

function boundConnections(server: Server, bounds: ConnectionBounds): void {
  // Node closes a connection past this at once, before it costs more than its descriptor.
  server.maxConnections = connectionCap(bounds.HTTP_MAX_CONNECTIONS);
  // Behind a proxy every connection is the proxy's: its own caps are the ones that see clients.
  if (bounds.TRUST_PROXY_HOPS === 0) capPerAddress(server, bounds.HTTP_MAX_CONNECTIONS_PER_ADDRESS);
  // After the cap per address, which closes a connection at once: one it closed makes no room.
  shedUnderPressure(server, server.maxConnections);
}

function capPerAddress(server: Server, perAddress: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    if (countedElsewhere(socket)) return;
    const address = addressKey(socket.remoteAddress ?? '');
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** Below the cap by this share, a new connection makes room by closing the least useful one. */
const HEADROOM = 0.05;

/**
 * Under pressure, the costly go, not the newcomers. Once the open connections come within 5% of
 * the cap, each new one closes the connection that has waited longest without a whole request (a
 * slow sender of headers), or else the one idle longest between requests (keep-alive): a few
 * addresses that fill the cap with connections that ask for nothing keep each other out, while
 * a client that sends a request still gets in. A connection with a request in flight, an event
 * stream or a WebSocket is never closed for room.
 */
export function shedUnderPressure(server: Server, cap: number): void {
  const soft = Math.max(1, cap - Math.max(1, Math.floor(cap * HEADROOM)));
  /** In the order they began to wait: a Set keeps its order, and a socket re-added goes last. */
  const waiting = new Set<Socket>();
  const idle = new Set<Socket>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed || countedElsewhere(socket)) return;
    if (open >= soft) {
      const shed = first(waiting) ?? first(idle);
      if (shed) {
        waiting.delete(shed);
        idle.delete(shed);
        shed.destroy();
      }
    }
    open++;
    waiting.add(socket);
    socket.once('close', () => {
      open--;
      waiting.delete(socket);
      idle.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    waiting.delete(socket);
    idle.delete(socket);
    response.once('finish', () => {
      if (!socket.destroyed) idle.add(socket);
    });
  });
  server.on('upgrade', (request: IncomingMessage) => {
    waiting.delete(request.socket);
    idle.delete(request.socket);
  });
  server.on(ANSWERED_THROUGH, (socket: Socket) => {
    if (socket.destroyed) return;
    waiting.delete(socket);
    idle.delete(socket);
    idle.add(socket);
  });
}

function first<T>(set: Set<T>): T | undefined {
  for (const item of set) return item;
  return undefined;
}
