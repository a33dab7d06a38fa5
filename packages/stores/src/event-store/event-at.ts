// The event at one position of the log, read as a follower reads the log (its personal fields
// sealed or opened, and marked `unreadable` rather than refused when this release cannot read it):
// how a parked event is read again for a retry.
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { EventStore } from './port.ts';

export async function eventAt(store: EventStore, position: number, { keepSealed = false } = {}): Promise<RecordedEvent | undefined> {
  const controller = new AbortController();
  try {
    for await (const event of store.subscribeToAll({ from: position, signal: controller.signal, keepSealed })) {
      return event.position === position ? event : undefined;
    }
    return undefined;
  } finally {
    controller.abort();
  }
}
