// What a subscriber does with one delivered event, whatever carried it: check it against the
// catalogue, drop it if it was seen before (when asked), open its sealed personal fields
// (personal.ts), run the handlers with retries, and hand it to the dead-letter sink when they keep
// failing. Only then is it acknowledged.
import { backoffDelay, sleep } from '@eventide/kernel/backoff.ts';
import type { DeadLetter } from '@eventide/stores/event-bus/port.ts';
import { isEventName, parsePayload, type AnyEventEnvelope, type EventEnvelope, type EventName } from '@eventide/kernel/events/catalogue.ts';
import { checkedPayload } from '@eventide/kernel/events/envelope.ts';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import { currentSchemaVersion, upcast, type Payload } from '@eventide/kernel/events/versions.ts';
import { inEventSpan, markFailed, SpanKind } from '@eventide/stores/tracing/event-spans.ts';
import { traceIdOf } from '@eventide/kernel/events/trail.ts';
import { openPayload, type KeyLookup } from './personal.ts';

export type { DeadLetter };

export type Handler<N extends EventName> = (event: EventEnvelope<N>) => Promise<void> | void;

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, initialDelayMs: 200, maxDelayMs: 10_000 };

export interface Outcome {
  kind: 'handled' | 'duplicate' | 'dead-lettered' | 'ignored';
  eventId?: string | undefined;
  eventType?: string | undefined;
  /** When the event was recorded in the event store (ISO 8601): how far behind this delivery is. */
  time?: string | undefined;
  /** The correlation id of the request that caused the event, from its metadata. */
  correlationId?: string | undefined;
  /** The trace the event's delivery belongs to, when tracing is on. */
  traceId?: string | undefined;
}

/** Remembers the ids of the most recent events, to drop redeliveries. */
export class SeenIds {
  private readonly ids = new Set<string>();
  private readonly capacity: number;
  constructor(capacity = 100_000) {
    this.capacity = capacity;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }
}

export class Dispatcher {
  private readonly handlers = new Map<EventName, Array<Handler<EventName>>>();
  private readonly retry: RetryPolicy;
  private readonly seen: SeenIds | undefined;
  private readonly deadLetter: (letter: DeadLetter) => Promise<void>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly observe: ((outcome: Outcome) => void) | undefined;
  private readonly keys: KeyLookup | undefined;

  constructor(options: {
    /** Opens personal fields that travel sealed; without it they read as null, marked `withheld`. */
    keys?: KeyLookup | undefined;
    /** Sees every delivery's outcome: for metrics and logs. */
    observe?: (outcome: Outcome) => void;
    retry?: Partial<RetryPolicy> | undefined;
    dedupe?: boolean | SeenIds | undefined;
    deadLetter: (letter: DeadLetter) => Promise<void>;
    sleep?: (ms: number) => Promise<void>;
  }) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.seen = options.dedupe === true ? new SeenIds() : options.dedupe || undefined;
    this.deadLetter = options.deadLetter;
    this.sleep = options.sleep ?? sleep;
    this.observe = options.observe;
    this.keys = options.keys;
  }

  on<N extends EventName>(name: N, handler: Handler<N>): void {
    if (!isEventName(name)) throw new TypeError(`${JSON.stringify(name)} is not one of the nine event names`);
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler as Handler<EventName>]);
  }

  names(): EventName[] {
    return [...this.handlers.keys()];
  }

  async dispatch(raw: string, origin: Record<string, string> = {}): Promise<Outcome> {
    const outcome = await this.handle(raw, origin);
    this.observe?.(outcome);
    return outcome;
  }

  private async handle(raw: string, origin: Record<string, string>): Promise<Outcome> {
    let envelope: AnyEventEnvelope;
    try {
      envelope = this.parse(raw);
    } catch (error) {
      await this.deadLetter({ raw, reason: `not a valid event: ${(error as Error).message}`, attempts: 0, origin });
      return { kind: 'dead-lettered' };
    }
    const handlers = this.handlers.get(envelope.type);
    const about = {
      eventId: envelope.id,
      eventType: envelope.type,
      time: envelope.time,
      correlationId: envelope.metadata?.correlationId,
      traceId: traceIdOf(envelope.metadata?.traceparent),
    };
    if (!handlers) return { kind: 'ignored', ...about };
    // An event its operator retried from the dead letters is handled again, though it was seen (dead-letters.ts).
    if (this.seen?.has(envelope.id) && origin.retried !== 'true') return { kind: 'duplicate', ...about };
    // One span for the delivery, continuing the publisher's: the handlers' own spans nest under it.
    return inEventSpan('handle', SpanKind.CONSUMER, envelope, () => this.run(envelope, handlers, raw, origin, about));
  }

  /** The handlers, retried with backoff; the dead-letter sink once they keep failing. */
  private async run(
    envelope: AnyEventEnvelope,
    handlers: Array<Handler<EventName>>,
    raw: string,
    origin: Record<string, string>,
    about: Omit<Outcome, 'kind'>,
  ): Promise<Outcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Inside the retries: a key store that is briefly unreachable is not a reason to give up.
        const event = await this.open(envelope);
        for (const handler of handlers) await handler(event as EventEnvelope<EventName>);
        this.seen?.add(envelope.id);
        return { kind: 'handled', ...about };
      } catch (error) {
        if (attempt >= this.retry.attempts) {
          const reason = String((error as Error)?.stack ?? error);
          const { eventId, eventType, correlationId } = about;
          await this.deadLetter({ raw, eventId, eventType, correlationId, reason, attempts: attempt, origin });
          markFailed(error);
          this.seen?.add(envelope.id);
          return { kind: 'dead-lettered', ...about };
        }
        await this.sleep(backoffDelay(attempt, { firstMs: this.retry.initialDelayMs, maxMs: this.retry.maxDelayMs }));
      }
    }
  }

  /**
   * The envelope as it travelled, upcast to the version this release knows (what the bus retained
   * from before a change is older), its payload checked with any sealed field as null. One newer
   * than this release knows is dead-lettered, saying so.
   */
  private parse(raw: string): AnyEventEnvelope {
    const value = JSON.parse(raw) as AnyEventEnvelope;
    if (typeof value !== 'object' || value === null || typeof value.id !== 'string' || !isEventName(String(value.type))) {
      throw new Error('missing id or a known type');
    }
    // Envelopes published before events had versions carry none: version 1.
    const data = upcast(value.type, value.schemaVersion ?? 1, value.data as Payload);
    return { ...value, schemaVersion: currentSchemaVersion(value.type), data: checkedPayload(value.type, data) } as AnyEventEnvelope;
  }

  /** The envelope its handlers see: personal fields opened, or null and marked forgotten or withheld. */
  private async open(envelope: AnyEventEnvelope): Promise<AnyEventEnvelope> {
    const opened = await openPayload(envelope.type, envelope.data as JsonValue, this.keys);
    if (opened.data === envelope.data) return envelope;
    return {
      ...envelope,
      data: parsePayload(envelope.type, opened.data),
      ...(opened.forgotten ? { forgotten: true } : {}),
      ...(opened.withheld ? { withheld: true } : {}),
    } as AnyEventEnvelope;
  }
}
