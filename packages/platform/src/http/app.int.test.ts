// The shared HTTP stack: one JSON log line per request with its correlation id, and defects
// answered as a bare 500 problem while the stack goes to the log only.
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { until } from '@eventide/testing/wait.ts';
import { testRoutes } from '@eventide/testing/test-routes.ts';
import { createHttpApp } from './app.ts';

const { log, lines } = capturedLog('info');

let url: string;
let close: () => void;
beforeAll(async () => {
  const table = testRoutes({
    boom: {
      method: 'get',
      path: '/boom',
      handle: () => {
        throw new Error('database password is hunter2');
      },
    },
    // A streamed answer whose source fails once its first piece is sent.
    cutShort: {
      method: 'get',
      path: '/cut-short',
      handle: (ctx) => {
        ctx.type = 'application/json';
        ctx.body = Readable.from(
          (async function* () {
            yield '{"first":"piece",';
            await new Promise((resolve) => setTimeout(resolve, 10));
            throw new Error('the store went away');
          })(),
          { objectMode: false },
        );
      },
    },
  });
  const app = createHttpApp({ log, ...table, bodyLimit: 1024 });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('shared HTTP stack', () => {
  it('logs one JSON line per request carrying the correlation id it answers with', async () => {
    const response = await fetch(`${url}/health?token=secret-in-query`, { headers: { 'X-Correlation-Id': 'corr-42' } });
    expect(response.headers.get('x-correlation-id')).toBe('corr-42');
    const line = lines.find((l) => l.correlationId === 'corr-42');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/health', status: 200, level: 'info' });
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
  });

  it('makes its own correlation id when the offered one is not sane', async () => {
    const response = await fetch(`${url}/health`, { headers: { 'X-Correlation-Id': 'bad id with spaces' } });
    expect(response.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a defect with a bare 500 problem and logs the stack under the correlation id', async () => {
    const response = await fetch(`${url}/boom`, { headers: { 'X-Correlation-Id': 'corr-boom' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    expect(JSON.parse(text)).toMatchObject({ status: 500, type: '/problems/internal', correlationId: 'corr-boom' });
    const logged = lines.find((l) => l.correlationId === 'corr-boom' && l.level === 'error' && l.err);
    expect((logged!.err as { stack: string }).stack).toContain('hunter2');
  });

  it('logs an answer that failed after its first byte with the status the client got, and cuts it off', async () => {
    const response = await fetch(`${url}/cut-short`, { headers: { 'X-Correlation-Id': 'corr-cut' } });
    expect(response.status).toBe(200);
    // The client cannot take a cut-off body for a whole one: the chunked encoding never ends.
    await expect(response.text()).rejects.toThrow();
    await until(() => lines.some((l) => l.correlationId === 'corr-cut' && l.msg === 'request'), 'the request line');
    const requestLine = lines.find((l) => l.correlationId === 'corr-cut' && l.msg === 'request');
    expect(requestLine).toMatchObject({ status: 200, cutOff: true, level: 'error' });
    const failure = lines.find((l) => l.correlationId === 'corr-cut' && l.err);
    expect((failure!.err as { message: string }).message).toBe('the store went away');
  });
});
