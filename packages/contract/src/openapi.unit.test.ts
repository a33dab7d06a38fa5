// The OpenAPI document is valid OpenAPI 3.1 (checked against the specification's own JSON
// Schema), and says what the route table says.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi.ts';
import { API_ROUTES } from './routes.ts';

describe('the OpenAPI document', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the document is read as loose JSON
  const document = openApiDocument() as { openapi: string; paths: Record<string, Record<string, any>> };

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes each route of the list once, with its parameters and body', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(API_ROUTES.length);
    const patchUser = document.paths['/users/{id}']!.patch;
    expect(patchUser.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'header:If-Match',
      'header:Idempotency-Key',
    ]);
    expect(patchUser.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
    const search = document.paths['/search']!.get;
    expect(search.parameters.find((p: { name: string }) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
    expect(document.paths['/v1/orders/{id}']!.put.deprecated).toBe(true);
  });
});
