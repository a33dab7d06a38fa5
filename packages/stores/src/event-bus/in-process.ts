// The in-process event bus of the embedded default: the publisher hands each batch to every
// group subscribed in this process, and publish resolves once each has handled it. It keeps
// nothing itself: durability is the publisher's checkpoint, which moves only after publish
// resolved, so a crash delivers again from the event store what was not yet handled. A group
// that joins later starts at the next publish (Kafka's groups start at the oldest message kept),
// and a group lives while it has members. Each group handles one message at a time, in publish
// order, handing them to its members in turn.
import { backoffDelay, sleep } from '@eventide/kernel/backoff.ts';
import type { AnyEventEnvelope } from '@eventide/kernel/events/catalogue.ts';
import { entityIdOf } from '@eventide/kernel/events/envelope.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { BusMessage, DeadLetter, EventBus, SubscribeOptions, Subscription } from './port.ts';

interface Member {
  options: SubscribeOptions;
  stopped: boolean;
  /** The delivery it is handling, if any: stop() waits for it. */
  handling: Promise<void> | undefined;
}

interface Pending {
  envelope: AnyEventEnvelope;
  message: BusMessage;
  done(): void;
}

class Group {
  readonly members: Member[] = [];
  private readonly line: Pending[] = [];
  private turn = 0;
  private draining: Promise<void> | undefined;

  private readonly log: Logger;
  private readonly closed: () => boolean;

  constructor(log: Logger, closed: () => boolean) {
    this.log = log;
    this.closed = closed;
  }

  wants(envelope: AnyEventEnvelope): boolean {
    return this.members.some((m) => m.options.names.includes(envelope.type));
  }

  /** Resolves once this group's member handled the envelope, or no member is left to. */
  offer(envelope: AnyEventEnvelope, message: BusMessage): Promise<void> {
    return new Promise((done) => {
      this.line.push({ envelope, message, done });
      this.draining ??= this.drain().finally(() => (this.draining = undefined));
    });
  }

  /** Ends what waits: the group has no member left, or the bus closed. */
  abandon(): void {
    for (const pending of this.line.splice(0)) pending.done();
  }

  private async drain(): Promise<void> {
    for (let pending = this.line.shift(); pending; pending = this.line.shift()) {
      await this.handOver(pending);
      pending.done();
    }
  }

  /** To the next member in turn that wants it, again and again until one handles it. */
  private async handOver({ envelope, message }: Pending): Promise<void> {
    for (let failures = 0; !this.closed(); ) {
      const members = this.members.filter((m) => !m.stopped && m.options.names.includes(envelope.type));
      if (members.length === 0) return;
      const member = members[this.turn++ % members.length]!;
      member.handling = member.options.deliver(message);
      try {
        await member.handling;
        return;
      } catch (err) {
        const delay = backoffDelay(++failures);
        this.log.warn(
          { err, eventId: envelope.id, correlationId: envelope.metadata.correlationId, retryInMs: Math.round(delay) },
          'in-process bus: delivery failed; delivering again',
        );
        await sleep(delay);
      }
    }
  }
}

export interface InProcessBusOptions {
  log: Logger;
  /** Where dead letters go; by default an error in the log (without the event's data). */
  onDeadLetter?: (letter: DeadLetter) => Promise<void> | void;
}

export function inProcessBus(options: InProcessBusOptions): EventBus {
  const { log } = options;
  const groups = new Map<string, Group>();
  let closed = false;

  function leave(name: string, group: Group, member: Member): void {
    member.stopped = true;
    group.members.splice(group.members.indexOf(member), 1);
    if (group.members.length > 0) return;
    groups.delete(name);
    group.abandon();
  }

  return {
    kind: 'in-process',

    async publish(envelopes) {
      if (closed) throw new Error('the in-process bus is closed');
      // Offered in order, each group's line keeps it; awaited together, groups go at their own pace.
      const handled: Array<Promise<void>> = [];
      for (const envelope of envelopes) {
        const wanting = [...groups.values()].filter((group) => group.wants(envelope));
        if (wanting.length === 0) continue;
        const message: BusMessage = {
          raw: JSON.stringify(envelope),
          origin: { position: String(envelope.position), key: entityIdOf(envelope) },
        };
        for (const group of wanting) handled.push(group.offer(envelope, message));
      }
      await Promise.all(handled);
    },

    async subscribe(subscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('the in-process bus is closed');
      let group = groups.get(subscribeOptions.group);
      if (!group) {
        group = new Group(log, () => closed);
        groups.set(subscribeOptions.group, group);
      }
      const member: Member = { options: subscribeOptions, stopped: false, handling: undefined };
      group.members.push(member);
      const joined = group;
      return {
        async deadLetter(letter) {
          if (options.onDeadLetter) return void (await options.onDeadLetter(letter));
          log.error(
            {
              group: subscribeOptions.group,
              eventId: letter.eventId,
              eventType: letter.eventType,
              correlationId: letter.correlationId,
              attempts: letter.attempts,
              reason: letter.reason,
            },
            'in-process bus: a subscriber gave up on an event; it was dropped',
          );
        },
        async stop() {
          if (!member.stopped) leave(subscribeOptions.group, joined, member);
          await member.handling?.catch(() => undefined);
        },
      };
    },

    async close() {
      closed = true;
      for (const group of groups.values()) group.abandon();
      groups.clear();
    },
  };
}
