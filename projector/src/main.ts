// Starts the projector alone: `npm run start:projector`, with the Kafka publisher when
// KAFKA_BROKERS is set. It serves only GET /health.
import { runServices } from '@eventide/shared/service/run.ts';
import { projectorService } from './service.ts';

await runServices('projector', { projector: projectorService() });
