// Every reply any test client (json-client.ts) gets, in every test file, is checked against the
// OpenAPI document the site serves; a file whose replies the document does not describe fails
// when it ends, listing them. So /openapi.json cannot drift from what the processes send.
import { afterAll } from 'vitest';
import { openApiDocument } from '@eventide/contract/openapi.ts';
import { observeEveryReply } from '@eventide/testing/json-client.ts';
import { type Conformance, openApiConformance } from '../openapi-conformance.ts';

let conformance: Conformance | undefined;
const mismatches = new Set<string>();
let checked = 0;

observeEveryReply((reply) => {
  // Built at the first reply: most test files send none.
  conformance ??= openApiConformance(openApiDocument());
  checked++;
  const mismatch = conformance.mismatch(reply);
  if (mismatch) mismatches.add(mismatch);
});

afterAll(() => {
  if (mismatches.size > 0) {
    throw new Error(
      `${mismatches.size} kinds of answer (of ${checked} replies) that /openapi.json does not describe:\n${[...mismatches].join('\n')}`,
    );
  }
});
