// Rebuilds the read models: replays the whole log into a fresh generation while the active one
// goes on serving queries, then promotes it. A projector following the old generation (in this
// process or another) notices the promotion at its next batch and follows the new one from its
// checkpoint, so events appended during the rebuild are not lost. What it cannot project is parked
// in the new generation's lot (parking.ts), which becomes the projector's with the promotion.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { lotOf, type ParkedEvents } from '@eventide/stores/parked/port.ts';
import { ParkingLot } from '@eventide/runtime/followers/parking.ts';
import { projection, projectParking } from './projector.ts';

const PAGE = 1000;

export interface RebuildProgress {
  generation: number;
  position: number;
  head: number;
  events: number;
  eventsPerSecond: number;
}

export async function rebuild(options: {
  eventStore: EventStore;
  readStore: ReadStore;
  parked: ParkedEvents;
  log: Logger;
  onProgress?: (progress: RebuildProgress) => void;
}): Promise<RebuildProgress> {
  const { eventStore, readStore, log } = options;
  const generation = await readStore.createGeneration();
  const writer = readStore.writer(generation);
  const lot = await ParkingLot.open(lotOf('projector', generation), options.parked, log);
  const handling = projection(writer, eventStore, log);
  const started = performance.now();
  const progress: RebuildProgress = { generation, position: 0, head: await eventStore.head(), events: 0, eventsPerSecond: 0 };
  log.info({ generation, head: progress.head }, 'rebuild: replaying the log into a fresh generation');
  // The live projector goes on with the active generation meanwhile, and may have got further
  // than the end of this replay by the time it ends: the store then refuses the promotion, and
  // the replay takes up what came since and asks again.
  do {
    for (;;) {
      const page = await eventStore.readAll({ after: progress.position, limit: PAGE });
      if (page.length === 0) break;
      await projectParking(lot, writer, handling, page);
      progress.position = page[page.length - 1]!.position;
      progress.events += page.length;
      // The head moves while we replay: report against where it is now.
      progress.head = Math.max(progress.head, progress.position);
      progress.eventsPerSecond = Math.round(progress.events / ((performance.now() - started) / 1000));
      options.onProgress?.({ ...progress });
      // The embedded stores answer without waiting: without this turn a rebuild of a large log would
      // hold the event loop (timers, progress output, anything else in the process) until it ends.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } while (!(await promoted(eventStore, readStore, generation, progress.position, log)));
  log.info({ ...progress }, 'rebuild: promoted');
  return progress;
}

async function promoted(eventStore: EventStore, readStore: ReadStore, generation: number, position: number, log: Logger): Promise<boolean> {
  if (await readStore.promote(generation)) return true;
  // Read in this order, the served position can pass the head only if it was never the log's.
  const served = await readStore.servedCheckpoint(READ_MODELS_CHECKPOINT);
  const head = await eventStore.head();
  if (served > head) {
    throw new Error(
      `rebuild: the served read models say they are at position ${served}, past the end of the event store (${head}): they were not made from this event store; the new generation ${generation} is left unpromoted`,
    );
  }
  log.info({ generation, position, served }, 'rebuild: the served read models got further meanwhile; replaying what came since');
  return false;
}
