// What runs on the followers' thread (thread.ts starts it): the projector service, as
// `npm run start:projector` runs it, on stores of its own opened from the process's configuration,
// reporting to the thread that started it where each follower has got.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '@eventide/kernel/log.ts';
import { compose } from '@eventide/runtime/compose.ts';
import { startHeapReducer } from '@eventide/runtime/heap-reducer.ts';
import { startTracing, tracingConfigured } from '@eventide/platform/tracing/setup.ts';
import { projectorService } from './service.ts';
import type { FromThread, ThreadData, ToThread } from './thread.ts';

const port = parentPort!;
const { name, level, config } = workerData as ThreadData;
const log = createLogger({ level, name });
const tracing = tracingConfigured(config) ? await startTracing(config, { serviceName: name }) : undefined;
const composition = await compose({ config, log }, { projector: projectorService() });
const { projector, publisher, forgetter, webhooks } = composition.services.projector;

const send = (message: FromThread) => port.postMessage(message);
const positions = () => ({
  projectedTo: projector.position(),
  publishedTo: publisher.position(),
  forgottenTo: forgetter.position(),
  webhooksAt: webhooks.follower.position(),
});

// One report per turn of this thread's loop, however many followers moved in it: under load the
// three move on every commit, and the other thread reads each report.
let report: { projected: boolean } | undefined;
const moved = (projected: boolean) => {
  if (report) {
    report.projected ||= projected;
    return;
  }
  report = { projected };
  setImmediate(() => {
    send({ type: 'progress', projected: report!.projected, positions: positions() });
    report = undefined;
  });
};
// The projector announces on the platform's signal from its start on: on a store it has caught up
// with, that first announcement may have come while the service was still being composed, and is
// then the only one, so it is passed on here, or the other thread would never hear of it.
const stopWatching = [
  composition.platform.projected.subscribe(() => moved(true)),
  publisher.onProgress(() => moved(false)),
  forgetter.onProgress(() => moved(false)),
  webhooks.follower.onProgress(() => moved(false)),
];
if (composition.platform.projected.notifications() > 0) moved(true);

// A thread's heap is its own: it gives back what it grew on its own too.
const heap = startHeapReducer(log);
port.on('message', async (message: ToThread) => {
  if (message.type !== 'close') return;
  heap.stop();
  for (const stop of stopWatching) stop();
  await composition.close();
  await tracing?.shutdown().catch((error: unknown) => log.warn({ err: error }, 'tracing: the last spans could not be exported'));
  await new Promise<void>((resolve) => log.flush(() => resolve()));
  // Ends this thread (not the process); the logger writes what still waits on the way out.
  process.exit(0);
});

send({ type: 'started', health: composition.health() as Record<string, unknown>, positions: positions() });
