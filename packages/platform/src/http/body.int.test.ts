import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson } from './body.ts';

// readJson decides which bodies are JSON from one parse of Content-Type; until 2026-11-30 it asked
// Koa (`ctx.is('application/json', '+json')`, then `ctx.request.charset`). Each header below is
// sent to both, and they must agree on it.
let server: Server;
let url: string;
beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/koa') {
      const charset = ctx.request.charset;
      ctx.body = {
        takes: Boolean(ctx.request.type) && Boolean(ctx.is('application/json', '+json')) && (!charset || charset.toLowerCase() === 'utf-8'),
      };
      return;
    }
    try {
      await readJson(ctx);
      ctx.body = { takes: true };
    } catch (error) {
      ctx.body = { takes: false, status: (error as { status?: number }).status };
    }
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

/** What the server at `path` says of a POST of `{}` with these headers (a length unless `chunked`). */
function ask(
  path: string,
  headers: Record<string, string>,
  { chunked = false, body = '{}' } = {},
): Promise<{ takes: boolean; status?: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      headers: chunked ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    if (chunked) req.write(body);
    req.end(chunked ? undefined : body);
  });
}

describe('which bodies readJson takes as JSON', () => {
  it.each([
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json; charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/problem+json',
    'application/merge-patch+json; charset=utf-8',
    'text/x-thing+json',
    'application/+json',
    'application/jsonx',
    'application/json-seq',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; =bad',
    'application/json; charset',
    'application/json;;',
    'application/ json',
    'application',
    '; charset=utf-8',
    '*/*',
  ])('Content-Type: %s, as Koa judged it', async (type) => {
    const koa = await ask('/koa', { 'content-type': type });
    const ours = await ask('/ours', { 'content-type': type });
    expect(ours.takes).toBe(koa.takes);
    if (!ours.takes) expect(ours.status).toBe(415);
  });

  it('a chunked body (no length) is a body, as Koa judged it', async () => {
    expect(await ask('/ours', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, { chunked: true })).toEqual(
      await ask('/koa', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, { chunked: true }),
    );
  });
});
