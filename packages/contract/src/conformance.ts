// Does an answer match what the route table documents? For tests: every reply the end-to-end
// suites get through the full app is checked with it, so the description cannot drift from
// what the services send.
import { problem } from './common.ts';
import { API_ROUTES, answerBody, type ApiRoute } from './routes.ts';

// API_ROUTES comes more specific first: /auth/session before /auth/{provider}.
const matchers = API_ROUTES.map((route) => ({ route, pattern: new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`) }));

export function routeOf(method: string, url: string): ApiRoute | undefined {
  const path = url.split('?')[0]!;
  return matchers.find((m) => m.route.method === method.toLowerCase() && m.pattern.test(path))?.route;
}

/** Why the answer does not match the document, or undefined when it does. */
export function undocumented(method: string, url: string, status: number, body: unknown): string | undefined {
  const route = routeOf(method, url);
  // Not a route of the API (a 404 for a path that does not exist is a problem document too).
  if (!route) return status >= 400 ? problemMismatch(method, url, status, body) : `${method} ${url}: not in the route table`;
  if (status >= 400) return problemMismatch(method, url, status, body);
  const answer = route.shape.answers[status];
  if (!answer) return `${method} ${url}: status ${status} is not documented for ${route.operationId}`;
  const schema = answerBody(route, answer);
  if (!schema) return undefined;
  const parsed = schema.safeParse(body);
  return parsed.success
    ? undefined
    : `${method} ${url} ${status}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
}

function problemMismatch(method: string, url: string, status: number, body: unknown): string | undefined {
  const parsed = problem.safeParse(body);
  if (!parsed.success) return `${method} ${url} ${status}: not a problem document`;
  return parsed.data.status === status ? undefined : `${method} ${url} ${status}: the problem says status ${parsed.data.status}`;
}
