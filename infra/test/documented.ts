// Checks every reply a test client gets against the API's description (packages/contract/src/routes.ts),
// so that the description cannot drift from what the services send. The harnesses fail their
// suite at close when a reply did not match.
import { undocumented } from '@eventide/contract/conformance.ts';
import type { Reply } from '@eventide/platform/testing/json-client.ts';

export function documentedReplies(onReply?: (reply: Reply) => void) {
  const mismatches = new Set<string>();
  return {
    clientOptions: {
      onReply(reply: Reply) {
        const json = /json/.test(reply.headers.get('content-type') ?? '');
        const mismatch = undocumented(reply.request.method, reply.request.path, reply.status, json ? reply.body : undefined);
        // A body that is not JSON (a page, a script) is checked for its status only.
        if (mismatch && (json || !/not a problem document/.test(mismatch))) mismatches.add(mismatch);
        onReply?.(reply);
      },
    },
    /** Throws, listing them, if any reply did not match. */
    assertAllDocumented() {
      if (mismatches.size > 0) throw new Error(`answers the API description does not document:\n${[...mismatches].join('\n')}`);
    },
  };
}
