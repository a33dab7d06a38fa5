// What every `main.ts` does: configuration from the environment (a bad value, or an address that
// cannot be listened on, stops the process with exit code 2 and a message naming it), the services
// composed on one platform, one HTTP server, and a clean shutdown on SIGINT/SIGTERM.
import { type Config, ConfigError, loadConfig } from '@eventide/kernel/config.ts';
import { serve } from '@eventide/platform/http/serve.ts';
import { createLogger, type Logger } from '@eventide/kernel/log.ts';
import { compose, type ServiceFactory } from './compose.ts';
import { startHeapReducer } from './heap-reducer.ts';
import { httpAppOf } from './http.ts';
import { availableParallelism } from 'node:os';
import { newDoor, openDoor } from './request-threads/hand-over.ts';
import { startRequestThreads, type RequestThreadPool } from './request-threads/pool.ts';
import { serveMetrics } from '@eventide/platform/metrics/serve-metrics.ts';
import { startTracing, tracingConfigured } from '@eventide/platform/tracing/setup.ts';

function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}

/**
 * A fault no boundary caught. This is not containment (each boundary fails alone on its own:
 * docs/operations.md#faults): the process says what it was, in its log, and exits 1, for its
 * runner to start it again. Node would exit too, but with the stack on stderr beside the log.
 */
function lastResort(log: Logger): void {
  const fatal = (error: unknown, what: string) => {
    log.fatal({ err: error }, `${what} that nothing caught; exiting, for the runner to start the process again`);
    log.flush(() => process.exit(1));
  };
  process.once('uncaughtException', (error) => fatal(error, 'an error'));
  process.once('unhandledRejection', (reason) => fatal(reason, 'a rejected promise'));
}

export interface RunOptions {
  /**
   * The module a request thread runs (infra/src/request-thread.ts), for a process that may serve
   * reads on several threads: HTTP_THREADS of them, unset meaning the cores available.
   */
  requestThreads?: URL;
}

/** How many threads answer HTTP: HTTP_THREADS, else one per core available; one when the process has no request threads. */
export function httpThreads(config: Pick<Config, 'HTTP_THREADS'>, options: RunOptions): number {
  return options.requestThreads ? (config.HTTP_THREADS ?? availableParallelism()) : 1;
}

export async function runServices(name: string, factories: Record<string, ServiceFactory>, options: RunOptions = {}): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const log = createLogger({ level: config.LOG_LEVEL, name });
  lastResort(log);
  // Before anything makes a span: the SDK is loaded only when an exporter is configured.
  const tracing = tracingConfigured(config) ? await startTracing(config, { serviceName: name }) : undefined;
  const composition = await compose({ config, log }, factories).catch(exitOnConfigError);
  log.info({ ...composition.health(), tracing: tracing?.description ?? 'off', dataDir: config.dataDir }, 'starting');
  const app = httpAppOf(composition, log);
  const threads = httpThreads(config, options);
  const door = threads > 1 ? newDoor() : undefined;
  let pool: RequestThreadPool | undefined;
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : await serveMetrics(composition.platform.metrics, {
          host: config.METRICS_HOST,
          port: config.METRICS_PORT,
          log,
          // With the request threads: how many listen now beside this thread.
          health: () => ({ ...composition.health(), ...pool?.health() }),
          ready: composition.ready,
          otherThreads: async () => (await pool?.metrics()) ?? [],
        }).catch(exitOnConfigError);
  const heap = startHeapReducer(log);
  let closeDoor: (() => Promise<void>) | undefined;
  let poolStopped: Promise<void> | undefined;
  // The request threads stop taking connections when this one does, and drain beside it.
  const beforeDrain = async () => {
    poolStopped = pool?.stop();
    await composition.disconnect();
  };
  const close = async () => {
    heap.stop();
    // The request threads drained beside this one: what they handed over was answered through the door.
    await poolStopped;
    await closeDoor?.();
    await metrics?.close();
    await composition.close();
    // Last: the spans of the shutdown's own work are exported too.
    await tracing?.shutdown().catch((error: unknown) => log.warn({ err: error }, 'tracing: the last spans could not be exported'));
  };
  const server = await serve({ app, config, log, threads, beforeDrain, onClose: close }).catch(exitOnConfigError);
  composition.attach(server);
  if (door && options.requestThreads) {
    closeDoor = (await openDoor(door, app.callback(), server)).close;
    const { auth } = composition;
    if (!auth) throw new Error('request threads need the services that open sessions and rate limits');
    pool = await startRequestThreads({
      entry: options.requestThreads,
      name,
      config: composition.platform.config,
      log,
      threads,
      door,
      limits: auth.threadLimits,
      projected: composition.platform.projected,
    });
  }
}
