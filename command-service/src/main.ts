// Starts the command service alone: `npm run start:command`.
import { runServices } from '@eventide/runtime/run.ts';
import { commandService } from './service.ts';

await runServices('command-service', { command: commandService() });
