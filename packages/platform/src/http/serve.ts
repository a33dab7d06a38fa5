// Listens, says where, and shuts down cleanly on SIGINT/SIGTERM (shutdown.ts).
import type Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { RequestListener, Server } from 'node:http';
import { type Config, EVERY_INTERFACE, listenHost } from '@eventide/kernel/config.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { answerClientErrors } from './client-errors.ts';
import { boundedServer, descriptorLimit, type ConnectionBounds } from './connections.ts';
import { socketOptions, type SocketOptionsSet } from './socket-options.ts';
import { gracefulShutdown } from './shutdown.ts';
import { listenRefusal } from '@eventide/kernel/listen-refusal.ts';

export interface ServeOptions {
  app: Koa;
  config: Pick<Config, 'PORT' | 'HOST' | 'SHUTDOWN_DRAIN_MS' | 'HTTP_SEND_BUFFER_BYTES' | 'TRUST_PROXY_HOPS'> & ConnectionBounds;
  log: Logger;
  /** Runs first at shutdown: ends long-lived connections (WebSockets), which the drain would wait on. */
  beforeDrain?: () => Promise<void>;
  onClose?: () => Promise<void>;
  /**
   * Threads of this process that listen on the same port (SO_REUSEPORT: the kernel gives each new
   * connection to one of them): 1 unless `npm start` runs request threads (runtime/request-threads).
   * Each thread takes its share of the connection caps, so that together they hold what one would.
   */
  threads?: number;
  /** Puts itself before the app: a request thread hands what it does not answer to the writing thread. */
  listener?: (app: RequestListener) => RequestListener;
  /** Whether SIGINT and SIGTERM shut this server down; a request thread is told by its process instead. */
  signals?: boolean;
}

/** What one of `threads` threads on a port may hold of a cap for all of them: never more than its share, never none. */
export const shareOf = (cap: number, threads: number) => Math.max(1, Math.floor(cap / threads));

export async function serve(options: ServeOptions): Promise<Server & { stop(reason: string): Promise<void> }> {
  const { app, log, beforeDrain, onClose, threads = 1, listener = (app) => app, signals = true } = options;
  const config =
    threads === 1
      ? options.config
      : {
          ...options.config,
          HTTP_MAX_CONNECTIONS: shareOf(options.config.HTTP_MAX_CONNECTIONS, threads),
          HTTP_MAX_CONNECTIONS_PER_ADDRESS: shareOf(options.config.HTTP_MAX_CONNECTIONS_PER_ADDRESS, threads),
        };
  const server = boundedServer(listener(app.callback()), config);
  const setSocketOptions = await socketOptions(
    { sendBufferBytes: config.HTTP_SEND_BUFFER_BYTES, sendTimeoutMs: config.HTTP_SEND_TIMEOUT_MS },
    log,
  );
  const host = listenHost(config);
  server.listen({ port: config.PORT, host, ...(threads > 1 ? { reusePort: true } : {}) });
  answerClientErrors(server);
  // At 'listening', before the loop turns to accept anyone: every connection inherits them.
  let kernel: SocketOptionsSet = {};
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => {
      kernel = setSocketOptions(server);
      resolve();
    });
    server.once('error', (error) => reject(listenRefusal(error, { port: 'PORT', host: 'HOST' }, config.PORT, host)));
  });
  const { port } = server.address() as AddressInfo;
  log.info({ port, url: `http://localhost:${port}`, maxConnections: server.maxConnections, ...kernel }, 'listening');
  if (config.TRUST_PROXY_HOPS > 0 && EVERY_INTERFACE.includes(host)) {
    // Whoever reaches this port directly is taken for the client its X-Forwarded-For names. Info,
    // not a warning: HOST was set so, as in a container (compose), whose every interface is the door's network alone.
    log.info(
      { host, trustProxyHops: config.TRUST_PROXY_HOPS },
      'behind a front door (TRUST_PROXY_HOPS) and listening on every interface, as HOST says: make sure only the door reaches this port',
    );
  }
  if (server.maxConnections < config.HTTP_MAX_CONNECTIONS) {
    log.warn(
      { configured: config.HTTP_MAX_CONNECTIONS, taken: server.maxConnections, descriptors: descriptorLimit() },
      'HTTP_MAX_CONNECTIONS is more than the descriptors this process may open allow; raise its limit (ulimit -n) to take that many',
    );
  }

  const stop = gracefulShutdown({
    server,
    log,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    signals,
    ...(beforeDrain ? { beforeDrain } : {}),
    ...(onClose ? { onClose } : {}),
  });
  return Object.assign(server, { stop });
}
