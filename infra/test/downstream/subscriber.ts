// A downstream service as its authors would write it, with only the packed SDK installed:
// prints each product as it is created, and its delivery metrics when stopped.
import { createSubscriber } from '@eventide/sdk';
import { subscriberMetrics } from '@eventide/sdk/metrics';
import { Registry } from 'prom-client';

const registry = new Registry();
const subscriber = createSubscriber({
  http: {
    url: process.env.EVENTIDE_URL ?? 'http://localhost:3000',
    from: 'now',
    credentials: { email: process.env.EVENTIDE_EMAIL ?? '', password: process.env.EVENTIDE_PASSWORD ?? '' },
  },
  dedupe: true,
  onDelivery: subscriberMetrics(registry, 'downstream'),
});
subscriber.on('product:created', (event) => {
  console.log(`product:created ${event.data.productId} ${event.data.name} ${event.data.price.amount} ${event.data.price.currency}`);
});
await subscriber.start();
console.log(`ready on Node ${process.versions.node}`);
process.once('SIGTERM', () => {
  void subscriber
    .stop()
    .then(() => registry.getSingleMetricAsString('subscriber_deliveries_total'))
    .then((metrics) => {
      console.log(metrics);
      process.exit(0);
    });
});
