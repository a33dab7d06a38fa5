// The checker every test reply passes through (setup/openapi-conformance.ts) must catch what a
// client generated from /openapi.json would trip on; each case here is one such disagreement.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@eventide/contract/openapi.ts';
import { openApiConformance } from './openapi-conformance.ts';

const conformance = openApiConformance(openApiDocument());
const reply = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  type = 'application/json',
  headers: Record<string, string> = {},
) => ({
  request: { method, path },
  status,
  headers: new Headers({ ...headers, ...(body === undefined ? {} : { 'content-type': type }) }),
  text: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
});
const TYPES: Record<number, string> = { 404: 'not-found', 405: 'method-not-allowed', 410: 'gone', 412: 'precondition-failed' };
const problem = (status: number, type = TYPES[status]) => ({
  type: `/problems/${type}`,
  title: 'X',
  status,
  detail: 'x',
  instance: '/x',
  correlationId: 'abc',
});
const PROBLEM = 'application/problem+json';
const health = { status: 'ok' };

describe('the OpenAPI conformance check', () => {
  it('passes answers the document describes, problems with their correlation id among them', () => {
    expect(conformance.mismatch(reply('GET', '/health', 200, health))).toBeUndefined();
    expect(conformance.mismatch(reply('GET', '/products/p1', 404, problem(404), 'application/problem+json'))).toBeUndefined();
    expect(conformance.mismatch(reply('PUT', '/products', 405, problem(405), 'application/problem+json'))).toBeUndefined();
    expect(conformance.mismatch(reply('GET', '/nowhere', 404, problem(404), 'application/problem+json'))).toBeUndefined();
    expect(conformance.mismatch(reply('HEAD', '/health', 200, undefined))).toBeUndefined();
  });

  it('fails a body its schema refuses', () => {
    expect(conformance.mismatch(reply('GET', '/health', 200, { status: 7 }))).toMatch(/GET \/health 200: \/status must be/);
    const extra = { ...problem(404), secret: 'leaked' };
    expect(conformance.mismatch(reply('GET', '/products/p1', 404, extra, 'application/problem+json'))).toMatch(/additional/);
  });

  it('fails a status, a media type or a path the document does not have', () => {
    expect(conformance.mismatch(reply('GET', '/health', 299, health))).toMatch(/status 299 is not declared/);
    // A read takes no If-Match: a 412 is no answer of it.
    expect(conformance.mismatch(reply('GET', '/products/p1', 412, problem(412), PROBLEM))).toMatch(/status 412 is not declared/);
    expect(conformance.mismatch(reply('GET', '/health', 200, 'ok', 'text/plain'))).toMatch(/text\/plain is not documented/);
    expect(conformance.mismatch(reply('GET', '/nowhere', 200, health))).toMatch(/not in the document/);
    expect(conformance.mismatch(reply('GET', '/nowhere', 404, '<html>', 'text/html'))).toMatch(/not a problem document/);
  });

  it('fails a problem type its status does not carry there', () => {
    expect(conformance.mismatch(reply('GET', '/products/p1', 404, problem(404, 'gone'), PROBLEM))).toMatch(
      /\/type must be equal to one of/,
    );
  });

  it('fails a header a client may act on that the answer does not declare', () => {
    expect(conformance.mismatch(reply('GET', '/health', 200, health, 'application/json', { ETag: '"1"' }))).toMatch(
      /sets etag, not declared/,
    );
    const retry = { 'Retry-After': '1' };
    expect(conformance.mismatch(reply('GET', '/products/p1', 404, problem(404), PROBLEM, retry))).toMatch(/sets retry-after/);
    expect(conformance.mismatch(reply('GET', '/app.js', 304, undefined, 'text/javascript', { ETag: '"a"' }))).toBeUndefined();
  });
});
