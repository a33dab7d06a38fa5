// A file served by serveStatic, asked for by a client that has it: the answer is a 304 without a
// body, so that a browser's revalidation of the docs' 460 KB costs a few bytes.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, staticFile } from './static-file.ts';

let server: Server;
let url: string;
const TEXT = 'console.log("the app");\n'.repeat(200);

beforeAll(async () => {
  const file = await staticFile('text/javascript', TEXT);
  const app = new Koa();
  app.use((ctx) => serveStatic(ctx, file));
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/app.js`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a static file', () => {
  it('is sent whole, compressed as asked, with its ETag', async () => {
    const answer = await fetch(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(await answer.text()).toBe(TEXT);
    expect(answer.headers.get('etag')).toMatch(/^"[\w-]{16}"$/);
  });

  it('answers 304, without a body, to a client whose copy is current', async () => {
    const etag = (await fetch(url)).headers.get('etag')!;
    for (const validator of [etag, `W/${etag}`, `"other", ${etag}`]) {
      // As a browser revalidates its copy. (Without a Cache-Control of its own, fetch adds
      // `no-cache` to a conditional request, which asks for the whole file whatever the ETag.)
      const answer = await fetch(url, { headers: { 'If-None-Match': validator, 'Cache-Control': 'max-age=0' } });
      expect(answer.status, validator).toBe(304);
      expect(answer.headers.get('etag'), validator).toBe(etag);
      expect(await answer.text(), validator).toBe('');
    }
  });

  it('is sent whole to a client whose copy is another one', async () => {
    const answer = await fetch(url, { headers: { 'If-None-Match': '"an old release"', 'Cache-Control': 'max-age=0' } });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(TEXT);
  });
});
