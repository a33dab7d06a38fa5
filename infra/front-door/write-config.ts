// `npm run front-door`: writes infra/front-door/nginx.conf, the front door compose runs, from the
// route table. Run it after a change to the table; a test fails while the file is out of date.
import { writeFileSync } from 'node:fs';
import { composeNginxConfig } from './nginx.ts';

export const COMPOSE_CONFIG = new URL('nginx.conf', import.meta.url);

if (import.meta.main) {
  writeFileSync(COMPOSE_CONFIG, composeNginxConfig());
  console.log(`wrote ${COMPOSE_CONFIG.pathname}`);
}
