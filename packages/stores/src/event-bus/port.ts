// The event bus port: what every adapter (Kafka, in-process) promises. The projector's publisher
// puts the nine public events on it; subscribers (the SDK's `on(name, handler)`) take them off in
// consumer groups. Both adapters pass contract.ts; what differs is said here and in docs/events.md.
import type { AnyEventEnvelope, EventName } from '@eventide/kernel/events/catalogue.ts';

/** Where a delivered message came from, as its adapter names it (topic, partition, offset…). */
export type Origin = Record<string, string>;

export interface BusMessage {
  /**
   * The envelope as it travelled (JSON text): the subscriber checks it against the catalogue
   * itself, since a bus may also carry what some other producer got wrong.
   */
  raw: string;
  origin: Origin;
}

/** A message a subscriber gave up on, with why: kept apart so that the rest keep flowing. */
export interface DeadLetter {
  /** The message as it arrived (text), so that nothing is lost even when it does not parse. */
  raw: string;
  eventId?: string | undefined;
  eventType?: string | undefined;
  /** The correlation id of the request that caused the event, for the logs. */
  correlationId?: string | undefined;
  reason: string;
  attempts: number;
  origin: Origin;
}

export interface SubscribeOptions {
  /**
   * The consumer group: each message goes to one member of each group. Members of one group
   * share the work; two groups each get every message.
   */
  group: string;
  /** The event names wanted; no other event is delivered. */
  names: readonly EventName[];
  /**
   * Handles one message. The next message about the same entity is not delivered to the group
   * before this resolves; a rejection delivers the same message again (at least once).
   */
  deliver(message: BusMessage): Promise<void>;
}

export interface Subscription {
  /** Sends a message to the group's dead letters (Kafka: `<topic>.dead-letter`). */
  deadLetter(letter: DeadLetter): Promise<void>;
  /** Leaves the group: nothing more is delivered to this member once it resolves. */
  stop(): Promise<void>;
}

export interface EventBus {
  /** Names the bus in logs, health and the publisher's checkpoint (`kafka`, `in-process`). */
  readonly kind: string;
  /**
   * Resolves once the bus holds every envelope (Kafka: acknowledged by all in-sync replicas;
   * in-process: handled by every group subscribed now). One entity's events stay in the order given.
   */
  publish(envelopes: readonly AnyEventEnvelope[]): Promise<void>;
  /** Joins a group; resolves once this member receives. */
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /**
   * Whether the bus's servers answer now (GET /health/ready): resolves with how many brokers it
   * sees, rejects when they do not answer. A bus in this process's memory has none to ask.
   */
  ping?(): Promise<number>;
  /** Stops every subscription of this bus and lets go of its connections. */
  close(): Promise<void>;
}
