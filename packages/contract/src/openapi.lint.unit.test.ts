// The OpenAPI document passes Redocly's `recommended` rules, the lint most API tooling applies,
// but for the exceptions below, each with its reason. An exception that no longer occurs fails
// too, so that the list says only what is true.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect, it } from 'vitest';
import { refusalsOf } from './answers.ts';
import { openApiDocument } from './openapi.ts';
import { API_ROUTES } from './routes.ts';

const pointer = (path: string) => path.replaceAll('~', '~0').replaceAll('/', '~1');
/** Operations that take no input and refuse no one (a file, the probes): they have no 4XX to declare. */
const NEVER_REFUSED = API_ROUTES.filter((route) => ![...refusalsOf(route).keys()].some((status) => status < 500 && status >= 400)).map(
  (route) => `operation-4xx-response #/paths/${pointer(route.path)}/${route.method}/responses`,
);

const EXCEPTIONS: Record<string, string> = {
  'info-license #/info':
    'the project has not chosen a licence for its API yet: that is its owners’ call, and naming one here would claim what no one decided',
  'no-ambiguous-paths #/paths/~1auth~1{provider}~1link':
    '/auth/{provider} is the path the specification gives the provider sign-in; a provider may not be named after a literal path under /auth (AUTH_PROVIDERS refuses "identities", from the route table), so /auth/identities/x and /auth/x/link never meet',
  'operation-2xx-response #/paths/~1auth~1callback/get/responses':
    'the end of a provider sign-in is a 303 back to the page that began it: a browser navigation, which has no 2xx',
  'operation-2xx-response #/paths/~1collab~1editor/get/responses':
    'where the editor page was, kept so that links to it still arrive: a 302 into the web app, a browser navigation with no 2xx',
  'operation-2xx-response #/paths/~1auth~1{provider}/get/responses':
    'the start of a provider sign-in is a 303 to the provider: a browser navigation, which has no 2xx (the specification names it GET /auth/{provider})',
  ...Object.fromEntries(
    NEVER_REFUSED.map((key) => [
      key,
      'it takes no input and refuses no one, so it answers no 4XX: the document declares only what is answered (answers.ts), and a 4XX declared for lint would be one a client waits for in vain',
    ]),
  ),
};

it('passes Redocly’s recommended lint, but for the justified exceptions', async () => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: 'openapi.json', config });
  const found = problems.map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer ?? ''}`);
  expect(found.filter((key) => !(key in EXCEPTIONS)).map((key) => ({ key, message: problems[found.indexOf(key)]!.message }))).toEqual([]);
  expect(Object.keys(EXCEPTIONS).filter((key) => !found.includes(key))).toEqual([]);
});
