// What each request thread of `npm start` runs (packages/runtime/src/request-threads): the services
// whose reads it answers, and only theirs (routing.ts derives which from this list), on connections
// of its own; main.ts starts HTTP_THREADS - 1 of them.
import { keepCompiledCode } from '@eventide/runtime/compile-cache.ts';

keepCompiledCode();
const [{ runRequestThread }, query, docs] = await Promise.all([
  import('@eventide/runtime/request-threads/thread.ts'),
  import('@eventide/query-service/src/service.ts'),
  import('@eventide/runtime/docs-service.ts'),
]);

await runRequestThread({ query: query.queryService(), docs: docs.apiDocsService() });
