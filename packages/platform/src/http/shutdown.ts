// What SIGTERM (or SIGINT) does to a server, in order, so that a supervisor can count on it:
// 1. stop accepting connections, and close the idle keep-alive ones at once;
// 2. end long-lived connections (WebSockets with 1012 "restart: reconnect", event streams, reads
//    waiting for the projector), so that their clients go to another process at once;
// 3. answer what is in flight, each with `Connection: close` (a request arriving meanwhile on an
//    open connection is answered the same way), for at most SHUTDOWN_DRAIN_MS;
// 4. cut what is left, close the stores (what was acknowledged is already committed), flush the log;
// 5. exit 0 — or 1 if closing took more than CLOSE_BOUND_MS after the drain, whatever hangs.
import type { Server, ServerResponse } from 'node:http';
import type { Logger } from '@eventide/kernel/log.ts';

/** How long closing the stores and flushing the log may take after the drain before the process exits anyway. */
const CLOSE_BOUND_MS = 3_000;

export interface ShutdownOptions {
  server: Server;
  log: Logger;
  drainMs: number;
  /** Ends long-lived connections, so that the drain need not wait for them. */
  beforeDrain?: () => Promise<void>;
  /** Closes what the services opened. */
  onClose?: () => Promise<void>;
  /** Whether SIGINT and SIGTERM start it (default); else only the function returned. */
  signals?: boolean;
}

/** Installs the shutdown on SIGINT and SIGTERM; returns it, for whatever else stops the server. */
export function gracefulShutdown({
  server,
  log,
  drainMs,
  beforeDrain,
  onClose,
  signals = true,
}: ShutdownOptions): (reason: string) => Promise<void> {
  let stopping = false;
  const answering = new Set<ServerResponse>();
  // Before the app's own listener: every response written once stopping began says Connection: close.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (stopping) {
      response.setHeader('Connection', 'close');
      return;
    }
    answering.add(response);
    response.once('close', () => answering.delete(response));
  });

  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info({ inFlight: answering.size, drainMs, signal: reason }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ afterMs: Date.now() - started }, 'shutdown: closing did not end in time; exiting anyway');
      process.exit(1);
    }, drainMs + CLOSE_BOUND_MS).unref();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const response of answering) {
      // Once its headers are out, the connection is still not kept after the answer.
      if (!response.headersSent) response.setHeader('Connection', 'close');
      else response.shouldKeepAlive = false;
    }
    await beforeDrain?.().catch((error: unknown) => log.error({ err: error }, 'closing long-lived connections failed'));
    const bound = new Promise<'cut'>((resolve) => setTimeout(() => resolve('cut'), drainMs).unref());
    if ((await Promise.race([drained, bound])) === 'cut') log.warn({ cut: answering.size }, 'shutdown: requests still in flight were cut');
    server.closeAllConnections();
    await onClose?.().catch((error: unknown) => log.error({ err: error }, 'shutdown: closing the stores failed'));
    log.info({ tookMs: Date.now() - started }, 'stopped');
    // The logger writes asynchronously: flush it, or the last lines are lost with the process.
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    clearTimeout(deadline);
    process.exit(0);
  };
  if (signals) {
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  }
  return stop;
}
