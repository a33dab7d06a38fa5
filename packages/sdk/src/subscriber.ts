// The subscriber SDK for downstream services:
//
//   const subscriber = createSubscriber({ kafka: { brokers, groupId: 'mailer' }, keys, dedupe: true });
//   // or, without Kafka: createSubscriber({ http: { url: 'http://localhost:3000' } })
//   // or, in the process that publishes on the in-process bus: createSubscriber({ bus: { bus, group: 'mailer' } })
//   subscriber.on('user:created', async (event) => sendWelcome(event.data.email));
//   await subscriber.start();
//
// Payloads are typed and checked per name. Handlers run with retries and backoff; an event they
// keep failing on goes to the dead letters and the rest keep flowing. Delivery is at least once;
// `dedupe: true` drops redeliveries by event id. On a bus, a person's name and address travel
// sealed: `keys` (the key store the services seal with, read only) opens them; without it they
// read as null and the event says `withheld`; once the person is forgotten, `forgotten`.
import type { EventName } from '@eventide/kernel/events/catalogue.ts';
import { createLogger, type Logger } from '@eventide/kernel/log.ts';
import { Dispatcher, type Handler, type Outcome, type RetryPolicy } from './dispatch.ts';
import { kafkaBus, type KafkaBusSettings } from '@eventide/stores/event-bus/kafka.ts';
import { busTransport, type BusTransportOptions, type Transport } from './bus-transport.ts';
import { httpTransport, type HttpTransportOptions } from './http-transport.ts';
import type { KeyLookup } from './personal.ts';
import { hasPersonalFields } from '@eventide/kernel/events/personal-fields.ts';
import { fileDeadLetters } from './dead-letter-file.ts';

export type { KeyLookup } from './personal.ts';

export interface KafkaSubscriberOptions extends Omit<KafkaBusSettings, 'clientId' | 'topicPrefix'> {
  groupId: string;
  /** Default: the group id. */
  clientId?: string;
  /** As the publisher's KAFKA_TOPIC_PREFIX; default "eventide.". */
  topicPrefix?: string;
}

export type SubscriberOptions = (
  | { kafka: KafkaSubscriberOptions; http?: undefined; bus?: undefined }
  | { http: HttpTransportOptions; kafka?: undefined; bus?: undefined }
  | { bus: Omit<BusTransportOptions, 'owned'>; kafka?: undefined; http?: undefined }
) &
  SubscriberSettings;

export interface SubscriberSettings {
  /**
   * Where the keys that open personal fields are: the services' key store (openKeyStore(config)),
   * of which only `lookup` is used. Needed on a bus (Kafka, in-process), where those fields travel
   * sealed; over HTTP the service sends them opened.
   */
  keys?: KeyLookup;
  dedupe?: boolean;
  retry?: Partial<RetryPolicy>;
  log?: Logger;
  /** Sees the outcome of every delivery (handled, duplicate, dead-lettered, ignored): for metrics. */
  onDelivery?: (outcome: Outcome) => void;
  /**
   * Over HTTP or the in-process bus: a file (JSON lines) the dead letters are kept in, which
   * `eventide-dead-letters --file` lists, retries and skips; a retry asked there is handled here
   * within a couple of seconds, or at the next start (dead-letter-file.ts). On Kafka they are on
   * `<topic>.dead-letter`.
   */
  deadLetterFile?: string;
}

export interface Subscriber {
  on<N extends EventName>(name: N, handler: Handler<N>): Subscriber;
  /** Resolves once the subscriber receives: joined its consumer group, or opened its stream. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** How often a subscriber with a dead-letter file looks there for retries its operator asked for. */
const RETRIES_EVERY_MS = 2_000;

export function createSubscriber(options: SubscriberOptions): Subscriber {
  const log = options.log ?? createLogger({ name: 'subscriber' });
  if (options.kafka && options.deadLetterFile)
    throw new TypeError('deadLetterFile is for http and bus: on Kafka, dead letters go to <topic>.dead-letter');
  const transport = transportOf(options, log);
  const file = options.deadLetterFile ? fileDeadLetters(options.deadLetterFile) : undefined;
  const dispatcher = new Dispatcher({
    retry: options.retry,
    dedupe: options.dedupe,
    observe: (outcome) => {
      // The end of an event's trail (events/trail.ts): which request caused what this group did.
      if (log.isLevelEnabled('debug')) {
        const { kind, eventId, eventType, correlationId, traceId } = outcome;
        log.debug({ correlationId, traceId, eventId, eventType, outcome: kind }, 'event delivered');
      }
      options.onDelivery?.(outcome);
    },
    keys: options.keys,
    deadLetter: async (letter) => {
      if (!file) return transport.deadLetter(letter);
      await file.add(letter);
      await options.http?.onDeadLetter?.(letter);
    },
  });
  let started = false;
  let retrying: NodeJS.Timeout | undefined;
  let serving: Promise<void> | undefined;
  /** Handles again what the operator asked to retry: a letter that fails again becomes a letter of its own. */
  const serveRetries = async () => {
    for (const letter of (await file?.retriesAsked()) ?? []) {
      const outcome = await dispatcher.dispatch(letter.raw, { ...letter.origin, retried: 'true' });
      await file!.retried(letter.id, outcome.kind);
    }
  };
  const subscriber: Subscriber = {
    on(name, handler) {
      if (started) throw new Error('register handlers before start()');
      dispatcher.on(name, handler);
      return subscriber;
    },
    async start() {
      started = true;
      const personal = dispatcher.names().filter(hasPersonalFields);
      if (!options.http && !options.keys && personal.length > 0) {
        log.warn({ handlers: personal }, 'subscriber: no keys given, so names and addresses in these events read as null (withheld)');
      }
      await transport.start(dispatcher);
      if (file) {
        const serve = () => {
          serving ??= serveRetries()
            .catch((error: unknown) => log.error({ err: error, file: file.path }, 'subscriber: retrying dead letters failed; trying again'))
            .finally(() => (serving = undefined));
        };
        serve();
        retrying = setInterval(serve, RETRIES_EVERY_MS);
      }
    },
    async stop() {
      clearInterval(retrying);
      await serving;
      await transport.stop();
    },
  };
  return subscriber;
}

function transportOf(options: SubscriberOptions, log: Logger): Transport {
  if (options.http) return httpTransport(options.http, log);
  if (options.bus) return busTransport(options.bus);
  const { groupId, clientId, topicPrefix, ...settings } = options.kafka;
  const bus = kafkaBus({ ...settings, clientId: clientId ?? groupId, topicPrefix: topicPrefix ?? 'eventide.' }, log);
  return busTransport({ bus, group: groupId, owned: true });
}
