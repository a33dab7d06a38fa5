// The read models of `npm run seed`, built on a thread of their own while the seed appends: the
// projector that `npm start` runs follows the event store from the read models' checkpoint, as
// it would follow the API's writes. Built after the last append instead, they took as long again
// (147 s after 122 s of appends for a million events); side by side, each has a core.
//
// Messages: the seed sends { until: position } once it has appended its last event; this thread
// sends { position } after every batch it writes and { done: true } once it has reached `until`
// and closed its stores.
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '@eventide/kernel/config.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { openReadModels } from '@eventide/stores/read-models/open.ts';
import { openParkedEvents } from '@eventide/stores/parked/open.ts';
import { startProjector } from '@eventide/projector/src/projector.ts';

export type ToReadModels = { until: number };
export type FromReadModels = { position: number } | { done: true };

const port = parentPort!;
const send = (message: FromReadModels) => port.postMessage(message);
const config = loadConfig(workerData as Record<string, string | undefined>);
const eventStore = await openEventStore(config);
const readStore = await openReadModels(config, { bulkLoad: true });
// Warnings and errors only (a failing batch is retried with backoff and logged), on stderr beside the progress bars.
const log = createLogger({ level: 'warn', name: 'seed-read-models', destination: process.stderr });
const parked = await openParkedEvents(config);
const projector = startProjector({ eventStore: eventStore.store, readStore: readStore.store, parked: parked.store, log });

let until: number | undefined;
let finishing = false;
async function finishOnceThere(position: number): Promise<void> {
  if (until === undefined || position < until || finishing) return;
  finishing = true;
  await projector.stop();
  await readStore.store.close();
  await parked.store.close();
  await eventStore.store.close();
  send({ done: true });
  port.close();
}

projector.onProgress((position) => {
  send({ position });
  void finishOnceThere(position);
});
port.on('message', (message: ToReadModels) => {
  until = message.until;
  void finishOnceThere(projector.position());
});
