// Tracing as an operator turns it on: the real process with OTEL_EXPORTER_OTLP_ENDPOINT set sends
// its spans over OTLP/HTTP (JSON) to a collector, here a loopback server that keeps what it is
// sent; those still buffered at SIGTERM are sent before the process exits. Without the variable,
// nothing is sent and the events carry no trace context.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { ENTRY, startService } from './process.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

const exports: OtlpExport[] = [];
const paths: string[] = [];
let collector: Server;
let collectorUrl: string;
const dirs: string[] = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      exports.push(JSON.parse(body) as OtlpExport);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-otlp-'));
  dirs.push(dir);
  return dir;
};

it('exports the spans of a write to the configured collector, the last of them at shutdown', async () => {
  const service = await startService({ DATA_DIR: dataDir(), OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl }, ENTRY.all);
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const caller = jsonClient(service.url);
  const reply = await caller.request(
    'POST',
    '/users',
    { name: 'Exported', email: 'exported@example.com', password: 'a long passphrase 4' },
    { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  );
  expect(reply.status).toBe(201);
  // Read back: the projector has projected the sign-up, so its span has ended before the stop.
  const read = await caller.request('GET', `/users/${(reply.body as { userId: string }).userId}`, undefined, {
    'Wait-For-Position': reply.headers.get('Event-Position')!,
  });
  expect(read.status).toBe(200);
  await service.stop();

  expect(paths.every((p) => p === 'POST /v1/traces application/json')).toBe(true);
  const spans = exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
  const names = spans.filter((s) => s.traceId === traceId).map((s) => s.name);
  expect(names).toEqual(expect.arrayContaining(['POST /users', 'project user:created', 'publish user:created']));
  expect(names.some((n) => n.startsWith('append'))).toBe(true);
  const services = exports.flatMap((e) =>
    e.resourceSpans.map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue),
  );
  expect(new Set(services)).toEqual(new Set(['eventide']));
});

it('sends nothing and puts no trace context in events when no endpoint is set', async () => {
  const before = exports.length;
  const dir = dataDir();
  const service = await startService({ DATA_DIR: dir }, ENTRY.all);
  const caller = jsonClient(service.url);
  const reply = await caller.request(
    'POST',
    '/users',
    { name: 'Untraced', email: 'untraced@example.com', password: 'a long passphrase 5' },
    { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-01' },
  );
  expect(reply.status).toBe(201);
  await service.stop();
  expect(exports.length).toBe(before);
  const events = await openEventStore(loadConfig({ DATA_DIR: dir }));
  try {
    const [created] = await events.store.readStream(`user-${(reply.body as { userId: string }).userId}`);
    expect(created!.metadata.correlationId).toBeTruthy();
    expect(created!.metadata).not.toHaveProperty('traceparent');
  } finally {
    await events.store.close();
  }
});
