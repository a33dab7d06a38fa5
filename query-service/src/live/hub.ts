// The one follower of the log behind every live stream of this process (GET /changes). Each
// event is delivered once the read models include it, as the document it changed reads then, so
// that a stream never shows an entity ahead of what a read of it answers, nor behind a read the
// page has made since it connected. One follower for every stream: an event costs one read of one
// document here, whatever the number of streams; each stream then only filters.
//
// It follows only while some stream listens, starting from where the read models are; a stream
// that resumes from further back catches up on its own (stream.ts).
import { isEventName, type Model } from '@eventide/kernel/events/catalogue.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { COLLECTION_OF, type Collection, type ReadDocument, type ReadStore } from '@eventide/stores/read-store/port.ts';
import type { Progress } from '../consistency.ts';

/** One entity as the read models hold it after the event at `position`: what a stream sends. */
export type Change<C extends Collection = Collection> = {
  [K in C]: {
    /** The global position of the event: a stream's resume point once it is sent. */
    position: number;
    resource: K;
    doc: ReadDocument<K>;
  };
}[C];

export interface ChangeListener {
  change(change: Change): void;
  /** The follower stopped on a failure: the stream ends, and its client resumes with Last-Event-ID. */
  fail(): void;
}

export interface HubDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  progress: Progress;
  stopping: AbortSignal;
  log: Logger;
}

/** How long one wait for the read models lasts before it is asked again. */
const WAIT_MS = 5_000;
/** Versions remembered per entity, so that a burst of events of one entity is read once; beyond this, forgotten. */
const REMEMBERED = 10_000;

/** The entity an event changes, or undefined for events no read model holds. */
export function entityOf(event: Pick<RecordedEvent, 'type' | 'streamId'>): { resource: Collection; id: string } | undefined {
  if (!isEventName(event.type)) return undefined;
  const model = event.type.slice(0, event.type.indexOf(':')) as Model;
  return { resource: COLLECTION_OF[model], id: event.streamId.slice(event.streamId.indexOf('-') + 1) };
}

/** The entity as the read models hold it now, as a change at `position`; undefined when they hold none. */
export async function changeOf<C extends Collection>(
  readStore: ReadStore,
  resource: C,
  id: string,
  position: number,
): Promise<Change<C> | undefined> {
  const doc = await readStore.get(resource, id);
  return doc && { position, resource, doc };
}

export class ChangeHub {
  private readonly deps: HubDeps;
  private readonly listeners = new Set<ChangeListener>();
  /** The current run of the follower, while any stream listens. */
  private run: { controller: AbortController; started: Promise<void> } | undefined;
  /** Every change at or before this position has been given to the listeners there were. */
  private delivered = 0;

  constructor(deps: HubDeps) {
    this.deps = deps;
  }

  get streams(): number {
    return this.listeners.size;
  }

  /**
   * Adds a listener, which gets every change after the position returned (and perhaps a few at or
   * before it, which it may drop). `leave` takes it off; the follower stops with the last one.
   */
  async join(listener: ChangeListener): Promise<{ at: number; leave: () => void }> {
    this.listeners.add(listener);
    const leave = () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
    try {
      this.run ??= this.start();
      await this.run.started;
    } catch (error) {
      leave();
      throw error;
    }
    return { at: this.delivered, leave };
  }

  private start(): NonNullable<ChangeHub['run']> {
    const controller = new AbortController();
    const started = this.deps.progress.current().then((from) => {
      if (controller.signal.aborted) return;
      this.delivered = from;
      void this.follow(from, controller);
    });
    // A failed start is the joining stream's error; the next join tries again.
    started.catch(() => {
      if (this.run?.controller === controller) this.run = undefined;
    });
    return { controller, started };
  }

  private stop(): void {
    this.run?.controller.abort();
    this.run = undefined;
  }

  /** To every listener; one that fails loses its stream, and the others go on. */
  private deliver(change: Change): void {
    for (const listener of this.listeners) {
      try {
        listener.change(change);
      } catch (error) {
        this.deps.log.error({ err: error }, 'live changes: a stream failed on a change; it ends, and its client resumes');
        this.listeners.delete(listener);
        listener.fail();
      }
    }
  }

  private async follow(from: number, controller: AbortController): Promise<void> {
    const { eventStore, readStore, progress, stopping, log } = this.deps;
    const signal = AbortSignal.any([controller.signal, stopping]);
    const shown = new Map<string, number>();
    let projected = from;
    try {
      // Sealed: only the entity an event names is needed here, never its personal fields.
      for await (const event of eventStore.subscribeToAll({ after: from, signal, keepSealed: true })) {
        // A run stopped while an event was on its way: a later run may already be following.
        if (signal.aborted) return;
        const entity = entityOf(event);
        if (entity) {
          while (projected < event.position && !signal.aborted) projected = await progress.waitFor(event.position, WAIT_MS);
          if (signal.aborted) return;
          const key = `${entity.resource}/${entity.id}`;
          // A document read for an earlier event of this burst already included this one.
          if ((shown.get(key) ?? -1) < event.revision) {
            const change = await changeOf(readStore, entity.resource, entity.id, event.position);
            if (signal.aborted) return;
            if (change) {
              if (shown.size >= REMEMBERED) shown.clear();
              shown.set(key, change.doc.version);
              this.deliver(change);
            }
          }
        }
        this.delivered = event.position;
      }
    } catch (error) {
      if (signal.aborted) return;
      log.error({ err: error }, 'live changes: following the log failed; open streams end and resume with Last-Event-ID');
      if (this.run?.controller === controller) this.run = undefined;
      for (const listener of [...this.listeners]) listener.fail();
    }
  }
}
