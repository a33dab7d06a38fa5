// A small downstream service: prints every user, product and order event as it happens.
//
//   npm start                      # in one terminal
//   # the event stream is for admins: sign one up, and make them an admin
//   curl -s -X POST localhost:3000/users -H 'content-type: application/json' \
//     -d '{"name":"Ops","email":"ops@example.com","password":"a long passphrase"}'
//   npm run admin -- grant ops@example.com
//   EVENTIDE_EMAIL=ops@example.com EVENTIDE_PASSWORD='a long passphrase' npm run example:subscriber
//   # then create something:
//   curl -s -X POST localhost:3000/users -H 'content-type: application/json' -d '{"name":"Ann","email":"ann@example.com"}'
//
// With Kafka (KAFKA_BROKERS set for both), it joins the consumer group "example-printer", and
// opens names and addresses, which travel sealed, with the services' key store (the same DATA_DIR
// or MONGO_URL as theirs).
import { loadConfig } from '@eventide/kernel/config.ts';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { openKeyStore } from '@eventide/stores/key-store/open.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { createSubscriber } from '@eventide/sdk/subscriber.ts';

const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
const url = process.env.EVENTIDE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
if (!brokers && (!process.env.EVENTIDE_EMAIL || !process.env.EVENTIDE_PASSWORD)) {
  console.error("set EVENTIDE_EMAIL and EVENTIDE_PASSWORD to an admin's (see the top of this file), or KAFKA_BROKERS");
  process.exit(2);
}
const log = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', name: 'example-subscriber' });

const keys = brokers ? (await openKeyStore(loadConfig())).store : undefined;
const subscriber = createSubscriber(
  brokers && keys
    ? {
        kafka: { brokers, groupId: 'example-printer', topicPrefix: process.env.KAFKA_TOPIC_PREFIX ?? 'eventide.' },
        keys,
        dedupe: true,
        log,
      }
    : {
        // From now on: the events that happen while it runs, not the whole history first.
        http: { url, from: 'now', credentials: { email: process.env.EVENTIDE_EMAIL ?? '', password: process.env.EVENTIDE_PASSWORD ?? '' } },
        dedupe: true,
        log,
      },
);
for (const name of EVENT_NAMES) {
  subscriber.on(name, (event) => {
    console.log(`${event.time}  #${event.position}  ${event.type}  ${JSON.stringify(event.data)}`);
  });
}
await subscriber.start();
console.log(brokers ? `subscribed to Kafka at ${brokers.join(',')}` : `subscribed to ${url}/events; waiting for events (Ctrl-C to stop)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.all([subscriber.stop(), keys?.close()]).then(() => process.exit(0)));
}
