// Delivery from an event bus (packages/stores/src/event-bus/port.ts): the subscriber joins the bus as a
// member of its consumer group, for the names it has handlers for. Over Kafka the SDK opens the
// bus itself from `kafka: { brokers, groupId }`; in the process that runs the publisher on the
// in-process bus, `bus: { bus, group }` takes that bus as it is.
import type { EventBus, Subscription } from '@eventide/stores/event-bus/port.ts';
import type { DeadLetter, Dispatcher } from './dispatch.ts';

export interface Transport {
  start(dispatcher: Dispatcher): Promise<void>;
  stop(): Promise<void>;
  deadLetter(letter: DeadLetter): Promise<void>;
}

export interface BusTransportOptions {
  bus: EventBus;
  group: string;
  /** Close the bus when the subscriber stops (it opened it). */
  owned?: boolean;
}

export function busTransport({ bus, group, owned = false }: BusTransportOptions): Transport {
  let subscription: Subscription | undefined;
  return {
    async start(dispatcher) {
      if (dispatcher.names().length === 0) throw new Error('register a handler with on() before start()');
      subscription = await bus.subscribe({
        group,
        names: dispatcher.names(),
        deliver: async ({ raw, origin }) => void (await dispatcher.dispatch(raw, origin)),
      });
    },
    async stop() {
      await subscription?.stop();
      if (owned) await bus.close();
    },
    async deadLetter(letter) {
      if (!subscription) throw new Error('the subscriber has not started');
      await subscription.deadLetter(letter);
    },
  };
}
