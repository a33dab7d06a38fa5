// Starts the projector alone: `npm run start:projector`, with the Kafka publisher when
// KAFKA_BROKERS is set. It serves only the health routes (how far it got: GET /health on METRICS_PORT).
import { runServices } from '@eventide/runtime/run.ts';
import { projectorService } from './service.ts';

await runServices('projector', { projector: projectorService() });
