// Listens, says where, and shuts down cleanly on SIGINT/SIGTERM: stop accepting, let requests
// in flight finish, then close adapters so nothing acknowledged is left unflushed.
import type Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Config } from '@eventide/kernel/config.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { answerClientErrors } from './client-errors.ts';
import { boundedServer, descriptorLimit, type ConnectionBounds } from './connections.ts';

/** How long shutdown waits for requests in flight. */
const DRAIN_MS = 10_000;

export interface ServeOptions {
  app: Koa;
  config: Pick<Config, 'PORT' | 'HOST'> & ConnectionBounds;
  log: Logger;
  /** Runs first at shutdown: ends long-lived connections (WebSockets), which the drain would wait on. */
  beforeDrain?: () => Promise<void>;
  onClose?: () => Promise<void>;
}

export async function serve({ app, config, log, beforeDrain, onClose }: ServeOptions): Promise<Server> {
  const server = boundedServer(app.callback(), config);
  server.listen(config.PORT, config.HOST);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  log.info({ port, url: `http://localhost:${port}`, maxConnections: server.maxConnections }, 'listening');
  if (server.maxConnections < config.HTTP_MAX_CONNECTIONS) {
    log.warn(
      { configured: config.HTTP_MAX_CONNECTIONS, taken: server.maxConnections, descriptors: descriptorLimit() },
      'HTTP_MAX_CONNECTIONS is more than the descriptors this process may open allow; raise its limit (ulimit -n) to take that many',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await beforeDrain?.().catch((error: unknown) => log.error({ err: error }, 'closing long-lived connections failed'));
    // Requests in flight finish (bounded), so that their appends are answered before the
    // store closes; idle keep-alive connections are closed at once.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const bound = new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref());
    await Promise.race([drained, bound]);
    server.closeAllConnections();
    await onClose?.();
    // The logger writes asynchronously: flush it, or the last lines are lost with the process.
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return server;
}
