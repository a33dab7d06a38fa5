// What every `main.ts` does: configuration from the environment (a bad value stops the process
// with exit code 2 and a message naming it), the services composed on one platform, one HTTP
// server, and a clean shutdown on SIGINT/SIGTERM.
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { serve } from '../http/serve.ts';
import { createLogger } from '../log.ts';
import { compose, type ServiceFactory } from './compose.ts';
import { httpAppOf } from './http.ts';
import { serveMetrics } from '../metrics/serve-metrics.ts';

function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}

export async function runServices(name: string, factories: Record<string, ServiceFactory>): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const log = createLogger({ level: config.LOG_LEVEL, name });
  const composition = await compose({ config, log }, factories).catch(exitOnConfigError);
  log.info({ ...composition.health(), dataDir: config.dataDir }, 'starting');
  const app = httpAppOf(composition, log);
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : await serveMetrics(composition.platform.metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT, log });
  const close = async () => {
    await metrics?.close();
    await composition.close();
  };
  const server = await serve({ app, config, log, beforeDrain: composition.disconnect, onClose: close });
  composition.attach(server);
}
