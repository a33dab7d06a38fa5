import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '@eventide/contract/routes.ts';
import { answeredOnRequestThreads, requestThreadAnswers } from './routing.ts';

/** What infra/src/request-thread.ts composes. */
const SERVICES = new Set(['query', 'docs'] as const);
const answersHere = requestThreadAnswers(API_ROUTES, SERVICES);

describe('which requests a request thread answers itself', () => {
  it.each([
    ['GET', '/api/products'],
    ['HEAD', '/products'],
    ['GET', '/products/01a22711-040b-7130-8b6f-30790040b4c3'],
    ['GET', '/v2/users/some-id'],
    ['GET', '/orders/some-id/history'],
    ['GET', '/search'],
    ['GET', '/images/abc/small'],
    ['GET', '/admin/followers'],
    ['GET', '/openapi.json'],
    ['GET', '/docs/swagger-ui.css'],
  ])('answers the read %s %s', (method, path) => {
    expect(answersHere(method, path)).toBe(true);
  });

  it.each([
    ['POST', '/users'],
    ['PATCH', '/products/some-id'],
    ['DELETE', '/orders/some-id'],
    ['OPTIONS', '/products'],
    ['PUT', '/api/products'],
    // Reads of the services the writing thread alone runs: the web app's files among them.
    ['GET', '/'],
    ['GET', '/app.js'],
    ['GET', '/app/chunk-1.js'],
    ['GET', '/auth/session'],
    ['GET', '/auth/github'],
    ['GET', '/collab/documents'],
    ['GET', '/users/some-id/export'],
    // The probes answer for the whole process.
    ['GET', '/health/ready'],
    // Streams: their per-user caps are counted in one place.
    ['GET', '/changes'],
    ['GET', '/events'],
    ['GET', '/admin/followers/live'],
    // Paths the table does not know get the writing thread's 404.
    ['GET', '/nothing-here'],
    ['GET', '/products/some-id/nothing'],
  ])('hands over %s %s', (method, path) => {
    expect(answersHere(method, path)).toBe(false);
  });

  it('answers here exactly the reads of its services that end with their answer, for every route of the table', () => {
    for (const route of API_ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      expect(answersHere(route.method.toUpperCase(), path), `${route.method} ${route.path}`).toBe(
        route.method === 'get' && answeredOnRequestThreads(route, SERVICES) && !sharesItsPathWithAMoreSpecific(route),
      );
    }
  });
});

/** A template whose path, with each parameter `x`, is taken by a more specific route (/users/x/export is not /users/{id}/…). */
function sharesItsPathWithAMoreSpecific(route: (typeof API_ROUTES)[number]): boolean {
  const path = route.path.replace(/\{[^}]+\}/g, 'x');
  return API_ROUTES.some(
    (other) => other !== route && other.method === 'get' && other.path === path && !answeredOnRequestThreads(other, SERVICES),
  );
}
