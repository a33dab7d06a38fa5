// Runs one command against one aggregate instance: load its state, replay the answer of a
// repeated request, check If-Match, decide, append with the revision it decided on.
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import type { ExpectedRevisions } from '@eventide/kernel/models/model.ts';
import { streamIdOf } from '@eventide/kernel/events/catalogue.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { derivedId, newId } from '@eventide/kernel/ids.ts';
import { WrongExpectedRevisionError, type AppendResult, type EventStore, type StreamAppend } from '@eventide/stores/event-store/port.ts';
import type { Aggregate, Decided } from './aggregate.ts';
import { loadState, unwrittenState, type LoadedState } from '@eventide/stores/event-store/load-state.ts';

/** If-Match: `*` (the entity must exist) or the revisions the client accepts. */

/** A request made with an Idempotency-Key: retries of it land on the same ids. */
export interface Idempotency {
  /** The key, already bound to the actor and the target (parseIdempotency in http/conditions.ts). */
  scopedKey: string;
  /** A hash of the request; the same key with another request is refused. */
  fingerprint: string;
}

export interface CommandOptions {
  metadata: Omit<EventMetadata, 'causationId'>;
  ifMatch?: ExpectedRevisions | undefined;
  idempotency?: Idempotency | undefined;
  /** The command this write is a step of (a sign-up, a provider sign-in), when not its own. */
  partOf?: string | undefined;
  /**
   * The entity's id was made for this request (newEntity): its stream cannot exist yet, so its
   * state is the initial one without reading the store (two reads of every create). The append
   * still expects no stream, so an id that did exist would be refused, never overwritten.
   */
  unwritten?: boolean | undefined;
  /**
   * The entity's state as a check before the command read it (an owner route's rule: http/mount.ts),
   * so it is not read twice. The append expects the revision it was read at, so a change made
   * since is refused as a concurrent one.
   */
  loaded?: LoadedState<unknown> | undefined;
}

export interface WriteResult<State> {
  state: State;
  /** The stream's revision after the write: the ETag. */
  revision: number;
  /** Global position of the write's last event; equal to the previous one when nothing changed. */
  position: number;
  /** Whether this call appended anything (false for a repeat and for a command that changes nothing). */
  changed: boolean;
}

export interface Hooks<State, Event> {
  /** Between decision and append, for what must hold across streams; may refuse by throwing. */
  beforeAppend?(events: Event[], before: State, commandId: string): Promise<void>;
  /**
   * Appends to other streams (a claim) to write before the command's own, in the same commit where
   * the store allows it (EventStore.appendInOrder). Asked again, `attempt` counting from 1, when
   * one of those streams changed between its read and the append; may refuse by throwing.
   */
  appendFirst?(events: Event[], before: State, commandId: string, attempt: number): Promise<StreamAppend[]>;
}

export const KEY_REUSED = 'this Idempotency-Key was already used for a different request; use a new key for a new request';

/** How often the appends of appendFirst are asked for again after another request changed their streams. */
const APPEND_FIRST_ATTEMPTS = 5;

/** The aggregate instance's state: from its newest snapshot and the events after it (load.ts). */
export function load<State, Event extends Decided>(
  store: EventStore,
  aggregate: Aggregate<State, unknown, Event>,
  entityId: string,
  options: { upTo?: number } = {},
): Promise<LoadedState<State>> {
  return loadState(store, aggregate, streamIdOf(aggregate.model, entityId), options);
}

/**
 * The id of an entity a command creates, and the options to create it with: the id is derived
 * from the Idempotency-Key, so that a retry finds the entity; without one it is new, so no stream
 * holds it and the command reads none (CommandOptions.unwritten).
 */
export function newEntity(options: CommandOptions): { id: string; options: CommandOptions } {
  if (options.idempotency) return { id: derivedId('entity', options.idempotency.scopedKey), options };
  return { id: newId(), options: { ...options, unwritten: true } };
}

export function commandIdOf(idempotency: Idempotency | undefined): string {
  return idempotency ? derivedId('command', idempotency.scopedKey) : newId();
}

function eventIdOf(commandId: string, idempotency: Idempotency | undefined, index: number): string {
  return idempotency ? derivedId('event', commandId, idempotency.fingerprint, String(index)) : newId();
}

/**
 * The result a repeated request first got, or undefined when this command is new to the stream.
 * The store finds the command's events by its id, so a retry costs the same on a long stream.
 */
async function replay<State, Event extends Decided>(
  store: EventStore,
  aggregate: Aggregate<State, unknown, Event>,
  streamId: string,
  commandId: string,
  idempotency: Idempotency | undefined,
): Promise<WriteResult<State> | undefined> {
  if (!idempotency) return undefined;
  const caused = await store.readCausedBy(streamId, commandId);
  if (caused.length === 0) return undefined;
  if (caused[0]!.id !== eventIdOf(commandId, idempotency, 0)) throw refuse.keyReused(KEY_REUSED);
  const last = caused[caused.length - 1]!;
  const then = await loadState(store, aggregate, streamId, { upTo: last.revision });
  return { state: then.state, revision: last.revision, position: last.position, changed: false };
}

function checkIfMatch(ifMatch: ExpectedRevisions | undefined, revision: number, what: string): void {
  if (ifMatch === undefined) return;
  if (revision < 0) throw refuse.stale(`${what} does not exist, so it cannot match If-Match`);
  if (ifMatch !== '*' && !ifMatch.includes(revision)) {
    throw refuse.stale(`${what} is at revision "${revision}", not ${ifMatch.map((r) => `"${r}"`).join(', ')}`);
  }
}

export async function handle<State, Command, Event extends Decided>(
  store: EventStore,
  aggregate: Aggregate<State, Command, Event>,
  entityId: string,
  command: Command | ((state: State) => Command),
  options: CommandOptions,
  hooks: Hooks<State, Event> = {},
): Promise<WriteResult<State>> {
  const what = `${aggregate.model} ${entityId}`;
  const commandId = options.partOf ?? commandIdOf(options.idempotency);
  // A repeat is answered from what the first request saw: the current state is not needed for it.
  const repeated = await replay(
    store,
    aggregate as Aggregate<State, unknown, Event>,
    streamIdOf(aggregate.model, entityId),
    commandId,
    options.idempotency,
  );
  if (repeated) return repeated;
  const loaded =
    (options.loaded as LoadedState<State> | undefined) ??
    (options.unwritten
      ? unwrittenState(aggregate, streamIdOf(aggregate.model, entityId))
      : await load(store, aggregate as Aggregate<State, unknown, Event>, entityId));
  checkIfMatch(options.ifMatch, loaded.revision, what);

  const resolved = typeof command === 'function' ? (command as (state: State) => Command)(loaded.state) : command;
  const decided = aggregate.decide(resolved, loaded.state);
  if (decided.length === 0) return { state: loaded.state, revision: loaded.revision, position: loaded.position, changed: false };

  await hooks.beforeAppend?.(decided, loaded.state, commandId);
  const metadata: EventMetadata = { ...options.metadata, causationId: commandId };
  const own: StreamAppend = {
    streamId: loaded.streamId,
    events: decided.map((e, i) => ({ id: eventIdOf(commandId, options.idempotency, i), type: e.type, data: e.data, metadata })),
    expectedRevision: loaded.revision < 0 ? 'no_stream' : loaded.revision,
  };
  let appended: AppendResult | undefined;
  for (let attempt = 1; !appended; attempt++) {
    const first = (await hooks.appendFirst?.(decided, loaded.state, commandId, attempt)) ?? [];
    try {
      appended = (await store.appendInOrder([...first, own])).at(-1)!;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (error.streamId !== own.streamId) {
        if (attempt < APPEND_FIRST_ATTEMPTS) continue;
        throw refuse.conflict(`other requests kept changing what ${what} depends on; retry`);
      }
      throw options.ifMatch
        ? refuse.stale(`${what} changed while this request was handled`)
        : refuse.conflict(`${what} was changed by another request at the same time; read it again and retry`);
    }
  }
  const state = decided.reduce(
    (s, e, i) => aggregate.evolve(s, { ...e, time: appended.time, revision: loaded.revision + 1 + i }),
    loaded.state,
  );
  return { state, revision: appended.nextRevision, position: appended.position, changed: true };
}
