// Files served as they are (the web app's bundle, the docs' Swagger UI, the editor's script),
// held in memory once and compressed once (brotli and gzip, off the event loop), each with a
// strong validator. A request costs no disk read and no compression, and every client shares the
// same buffers: a thousand slow readers of a 1.7 MB file hold no more of it than one.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';

export interface StaticFile {
  type: string;
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
  /** Default no-cache: revalidated by its ETag on each use. */
  cacheControl: string;
}

const brotliAsync = promisify(brotliCompress);

/**
 * Brotli's densest settings (10, 11) cost 10 to 30 times the time of 9 on a large file for some
 * 8% less: Swagger UI's 1.7 MB bundle took 6.7 s of a core at 11 and 0.2 s at 9 (392 KB against
 * 359 KB), at every start, and a process stopped meanwhile waited for it to end. Small files
 * (the web app's bundle, the editor's) still get 11.
 */
const brotliQuality = (bytes: number) => (bytes <= 256 * 1024 ? 11 : 9);
const gzipAsync = promisify(gzip);

/** The file, compressed on zlib's threads: the process goes on answering meanwhile. */
export async function staticFile(type: string, content: string | Buffer, cacheControl = 'no-cache'): Promise<StaticFile> {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.length), [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  ]);
  return {
    type,
    body,
    gzip: gzipped,
    brotli,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`,
    cacheControl,
  };
}

/**
 * How long a front door may answer with its own copy of a file before it asks again (with the
 * ETag: a 304 while the file is unchanged). nginx reads X-Accel-Expires before Cache-Control and
 * does not pass it on, so browsers still revalidate on every use. The door then serves a thousand
 * slow readers of a file from one copy on its disk, none of them holding a connection to this
 * process (infra/front-door/nginx.ts). Short, so that a new release's files reach every door
 * within seconds of it.
 */
export const DOOR_KEEPS_SECONDS = 5;

/** Answers with the file, compressed as the client accepts, or 304 when its copy is current. */
export function serveStatic(ctx: Context, file: StaticFile): void {
  // Before Cache-Control: nginx before 1.23 reads them in order, and no-cache first would win.
  ctx.set('X-Accel-Expires', String(DOOR_KEEPS_SECONDS));
  ctx.type = file.type;
  ctx.set('Cache-Control', file.cacheControl);
  ctx.set('ETag', file.etag);
  ctx.vary('Accept-Encoding');
  // Koa's `fresh` compares validators only for a 2xx status, and a route's status is 404 until
  // it answers: without this, a client's current copy was never recognised and sent again whole.
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  const body = encoding === 'br' ? file.brotli : encoding === 'gzip' ? file.gzip : file.body;
  if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
  if (body.length <= PIECE) {
    ctx.body = body;
    return;
  }
  ctx.body = Readable.from(piecesOf(body), { objectMode: false, highWaterMark: PIECE });
  ctx.length = body.length;
}

/**
 * A large answer is written a piece at a time, each a view of the shared buffer (no copy), so
 * that each piece the kernel takes is progress the send timeout sees (progress.ts): written
 * whole, a 1.7 MB file is one write that completes only at its end, and a reader on a slow
 * line would look like one that takes nothing.
 */
const PIECE = 64 * 1024;

function* piecesOf(body: Buffer): Generator<Buffer> {
  for (let start = 0; start < body.length; start += PIECE) yield body.subarray(start, start + PIECE);
}
