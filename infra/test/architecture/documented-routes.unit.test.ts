// The API's documents (docs/api.md, auth.md, collab.md) list its routes in tables, with what
// each takes and answers in words. They are written by hand, so this keeps them to the route
// table (packages/contract/src/operations.ts): every route a table names is one the API has, and
// every route a client calls is in a table. The operator's routes (admins only: the console's,
// GET /events) are in docs/operations.md and events.md, and the docs' and web app's files in
// OpenAPI only.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '@eventide/contract/routes.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCUMENTS = ['docs/api.md', 'docs/auth.md', 'docs/collab.md'];
const METHODS = 'GET|POST|PUT|PATCH|DELETE';

/** A path as the table and the docs may both write it: its query left out, and every parameter alike (`{userId}`, `{id}`, `<id>`). */
const comparable = (path: string) => path.split('?')[0]!.replace(/\{[^}]+\}|<[^>]+>/g, '{}');

interface DocumentedRoute {
  where: string;
  route: string;
}

const TABLE = new Set(API_ROUTES.map((route) => `${route.method.toUpperCase()} ${comparable(route.path)}`));

/** `…/rest` after `METHOD /a/b/c`: the rest on the longest start of /a/b/c that makes a route (else on /a/b, to be reported). */
function continued(method: string, previous: string, rest: string): string {
  const segments = previous.split('/');
  for (let keep = segments.length; keep > 1; keep--) {
    const candidate = `${method} ${comparable(segments.slice(0, keep).join('/') + rest)}`;
    if (TABLE.has(candidate)) return candidate;
  }
  return `${method} ${comparable(segments.slice(0, -1).join('/') + rest)}`;
}

/**
 * The routes a table row names. Two forms: a method cell (`GET`, `PUT, DELETE`) and a path cell
 * of backticked paths, where "(and `/v1`, `/v2`)" adds the versioned paths; or one cell of
 * backticked `METHOD /path`, where `…/rest` (or `METHOD …/rest`) continues the path before it.
 */
function routesOf(row: string): string[] {
  const cells = row.split('|').map((cell) => cell.trim());
  const [, first = '', second = ''] = cells;
  if (new RegExp(`^(${METHODS})(, (${METHODS}))*$`).test(first)) {
    const paths = [...second.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((path) => !/^\/v\d+$/.test(path));
    const versioned = /\(and `\/v1`, `\/v2`\)/.test(second) ? paths.flatMap((path) => [`/v1${path}`, `/v2${path}`]) : [];
    return first.split(', ').flatMap((method) => [...paths, ...versioned].map((path) => `${method} ${comparable(path)}`));
  }
  const found: string[] = [];
  let last = '';
  for (const match of first.matchAll(new RegExp(`\`(?:(${METHODS}) )?(…)?(/[^\`\\s]*)\``, 'g'))) {
    const [, method, ellipsis, path = ''] = match;
    const [lastMethod = '', lastPath = ''] = last.split(' ');
    if (ellipsis && last) found.push(continued(method ?? lastMethod, lastPath, path));
    else if (method && !ellipsis) {
      last = `${method} ${path}`;
      found.push(`${method} ${comparable(path)}`);
    }
  }
  return found;
}

function documentedRoutes(): DocumentedRoute[] {
  return DOCUMENTS.flatMap((file) =>
    readFileSync(`${ROOT}${file}`, 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.startsWith('|') ? routesOf(line).map((route) => ({ where: `${file}:${index + 1}`, route })) : [])),
  );
}

const tableRoute = (route: (typeof API_ROUTES)[number]) => `${route.method.toUpperCase()} ${comparable(route.path)}`;

describe('the routes the API documents list', () => {
  const documented = documentedRoutes();

  it('reads the tables', () => {
    expect(documented.length).toBeGreaterThan(40);
    expect(documented.map((d) => d.route)).toContain('DELETE /collab/documents/{}/viewers/{}');
    expect(documented.map((d) => d.route)).toContain('GET /v1/orders/{}');
  });

  it('are all routes of the route table', () => {
    expect(documented.filter((d) => !TABLE.has(d.route)).map((d) => `${d.where}: ${d.route}`)).toEqual([]);
  });

  it('include every route a client calls', () => {
    const named = new Set(documented.map((d) => d.route));
    const forClients = API_ROUTES.filter((route) => route.spec.access !== 'admin' && !['docs', 'web'].includes(route.spec.service));
    expect(forClients.map(tableRoute).filter((route) => !named.has(route))).toEqual([]);
  });
});
