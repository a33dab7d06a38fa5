// `npm run rebuild`: rebuilds the read models of the configured stores, printing progress. Safe
// while the services run: they go on serving the old generation until the new one is promoted.
import { loadConfig } from '@eventide/kernel/config.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { openReadModels } from '@eventide/stores/read-models/open.ts';
import { openParkedEvents } from '@eventide/stores/parked/open.ts';
import { rebuild } from './rebuild.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'rebuild' });
const eventStore = (await openEventStore(config)).store;
const readStore = (await openReadModels(config)).store;
const parked = (await openParkedEvents(config)).store;
let lastReport = Number.NEGATIVE_INFINITY;
try {
  const done = await rebuild({
    eventStore,
    readStore,
    parked,
    log,
    onProgress(p) {
      if (performance.now() - lastReport < 500) return;
      lastReport = performance.now();
      const percent = p.head > 0 ? Math.min(100, Math.floor((p.position / p.head) * 100)) : 100;
      log.info({ ...p, percent }, `rebuild: ${percent}% (${p.events} events, ${p.eventsPerSecond}/s)`);
    },
  });
  log.info({ generation: done.generation, events: done.events }, 'rebuild: done');
} finally {
  await readStore.close();
  await parked.close();
  await eventStore.close();
}
