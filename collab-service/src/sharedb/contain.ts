// Every ShareDB middleware hook is a unit of work that fails alone. ShareDB calls a hook from
// wherever the request happens to be (a socket's message event, a store's callback), where a throw
// has no caller that could catch it: the process would end, and with it every editor, the REST
// API and the read side. So each hook installed on the backend, ours and any added later, runs
// contained: a throw, or a rejection of what it returned, becomes the request's error (the client
// is answered ERR_INTERNAL and the server logs the stack), and `next` is passed on at most once.
// What `next` itself throws (ShareDB's own work after the last hook, run inside the hook's call,
// or inside a promise's callback where it would be an unhandled rejection) is logged there.
import type ShareDB from 'sharedb';
import type { Logger } from '@eventide/kernel/log.ts';
import { collabErrors } from '../errors.ts';

type Middleware = (context: Record<string, unknown>, next: (error?: unknown) => void) => unknown;

/** What the log says of the request a hook failed on: never its content (an op's text, a cursor). */
function requestOf(action: string, context: Record<string, unknown>) {
  const agent = context.agent as { clientId?: unknown } | undefined;
  const data = context.data as { a?: unknown } | undefined;
  return { action, collection: context.collection, id: context.id, message: data?.a, client: agent?.clientId };
}

/** Makes every hook installed from now on through `backend.use` contained (above). */
export function containMiddleware(backend: ShareDB, log: Logger): void {
  const use = backend.use.bind(backend) as (action: string | string[], fn: Middleware) => ShareDB;
  (backend as unknown as { use: typeof use }).use = (action, fn) =>
    use(action, (context, next) => {
      let passed = false;
      const request = () => requestOf(String(context.action ?? action), context);
      const once = (error?: unknown) => {
        if (passed) return;
        passed = true;
        try {
          next(error);
        } catch (thrown) {
          log.error({ err: thrown, request: request() }, 'collab: handling a request failed after its middleware passed it on');
        }
      };
      const fail = (error: unknown) => {
        if (passed) {
          // The hook had handed the request on: it can no longer be answered with this error.
          log.error({ err: error, request: request() }, 'collab: a middleware hook failed after passing its request on');
          return;
        }
        log.error({ err: error, request: request() }, 'collab: a middleware hook failed; the client was told ERR_INTERNAL');
        once(collabErrors.internal());
      };
      try {
        const returned = fn(context, once);
        if (returned instanceof Promise) returned.catch(fail);
      } catch (error) {
        fail(error);
      }
    });
}
