import { Parser, DiagnosticSeverity } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { currentSchemaVersion } from '@eventide/kernel/events/versions.ts';
import { asyncApiDocument } from './asyncapi.ts';
import { asyncApiChecker } from '@eventide/testing/asyncapi-messages.ts';

describe('the AsyncAPI document', () => {
  it('is valid AsyncAPI 3 to the AsyncAPI parser, with no warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(asyncApiDocument()));
    const worth = diagnostics.filter((d) => d.severity <= DiagnosticSeverity.Warning);
    expect(
      worth.map((d) => `${d.code} at ${d.path.join('.')}: ${d.message}`),
      'diagnostics',
    ).toEqual([]);
    expect(document).toBeDefined();
  });

  it('describes each of the nine events on its model’s topic, with its key, headers and current version', async () => {
    const { document } = await new Parser().parse(JSON.stringify(asyncApiDocument()));
    const topics = document!
      .channels()
      .all()
      .filter((c) =>
        c
          .servers()
          .all()
          .some((s) => s.protocol() === 'kafka'),
      );
    expect(topics.map((c) => c.address()).sort()).toEqual(['{prefix}order', '{prefix}product', '{prefix}user']);
    const messages = topics.flatMap((c) => c.messages().all());
    expect(messages.map((m) => m.name()).sort()).toEqual([...EVENT_NAMES].sort());
    for (const message of messages) {
      const name = message.name() as (typeof EVENT_NAMES)[number];
      const headers = message.headers()!.json() as { properties: Record<string, { const?: string }>; required: string[] };
      expect(headers.properties['event-type']!.const).toBe(name);
      expect(headers.properties['schema-version']!.const).toBe(String(currentSchemaVersion(name)));
      expect(headers.required).toEqual(['event-type', 'event-id', 'schema-version', 'correlation-id']);
      expect((message.payload()!.json() as { properties: { schemaVersion: { const: number } } }).properties.schemaVersion.const).toBe(
        currentSchemaVersion(name),
      );
      expect(message.bindings().get('kafka')!.value().key).toMatchObject({ type: 'string' });
    }
  });

  it('describes the two event streams of the HTTP API, each SSE message by its event name', async () => {
    const { document } = await new Parser().parse(JSON.stringify(asyncApiDocument()));
    const streams = document!
      .channels()
      .all()
      .filter((c) =>
        c
          .servers()
          .all()
          .some((s) => s.id() === 'site'),
      );
    const names = Object.fromEntries(
      streams.map((c) => [
        c.address(),
        c
          .messages()
          .all()
          .map((m) => m.name())
          .sort(),
      ]),
    );
    expect(names).toEqual({
      '/events': [...EVENT_NAMES].sort(),
      '/changes': ['changed', 'deleted', 'ended', 'ready', 'reset'],
    });
    const checker = asyncApiChecker('eventide.');
    const product = { resource: 'products', id: 'p1', version: 2, body: { name: 'Kettle' } };
    expect(checker.streamProblemsOf('/changes', { event: 'changed', id: '42', data: JSON.stringify(product) })).toEqual([]);
    expect(
      checker.streamProblemsOf('/changes', { event: 'changed', id: '42', data: JSON.stringify({ ...product, body: undefined }) }),
    ).toEqual(["changed data: (root) must have required property 'body'"]);
    expect(checker.streamProblemsOf('/changes', { event: 'moved', id: '42', data: '{}' })).toEqual([
      'the document describes no moved message on /changes',
    ]);
    expect(checker.streamProblemsOf('/changes', { event: 'ready', id: 'x', data: '{"position":3}' })).toEqual([
      'ready fields: /id must match pattern "^[0-9]+$"',
    ]);
  });

  // The parser does not check examples against their schemas in AsyncAPI 3: this does.
  it('holds an example of each message that its own schemas take, and refuses one altered', () => {
    const checker = asyncApiChecker('eventide.');
    expect(checker.examples).toHaveLength(9);
    for (const example of checker.examples) expect(checker.problemsOf(example), example.headers['event-type']).toEqual([]);
    const product = checker.examples.find((e) => e.headers['event-type'] === 'product:created')!;
    const { taxRate: _, ...withoutTaxRate } = (product.payload as { data: Record<string, unknown> }).data;
    expect(checker.problemsOf({ ...product, payload: { ...(product.payload as object), data: withoutTaxRate } })).toEqual([
      "product:created payload: /data must have required property 'taxRate'",
    ]);
    expect(checker.problemsOf({ ...product, headers: { ...product.headers, 'schema-version': '1' } })).toEqual([
      'product:created headers: /schema-version must be equal to constant',
    ]);
    expect(checker.problemsOf({ ...product, topic: 'eventide.user' })).toEqual([
      'the document describes no product:created message on eventide.user',
    ]);
  });
});
