// Bounds on what connections a client can hold: how long it may take to send a request, how long
// an idle keep-alive connection stays, how many connections there are in all, and how many come
// from one address, so that one address holding thousands of slow connections cannot take the
// descriptors everyone else needs. docs/operations.md#bounds lists the knobs.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../auth/client-address.ts';
import type { Config } from '../config.ts';

export type ConnectionBounds = Pick<
  Config,
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
  | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'
  | 'HTTP_MAX_CONNECTIONS'
  | 'HTTP_MAX_CONNECTIONS_PER_ADDRESS'
  | 'TRUST_PROXY_HOPS'
>;

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
  boundConnections(server, bounds);
  return server;
}

function boundConnections(server: Server, bounds: ConnectionBounds): void {
  // Node closes a connection past this at once, before it costs more than its descriptor.
  server.maxConnections = bounds.HTTP_MAX_CONNECTIONS;
  // Behind a proxy every connection is the proxy's: its own caps are the ones that see clients.
  if (bounds.TRUST_PROXY_HOPS > 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = addressKey(socket.remoteAddress ?? '');
    const count = (open.get(address) ?? 0) + 1;
    if (count > bounds.HTTP_MAX_CONNECTIONS_PER_ADDRESS) {
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
