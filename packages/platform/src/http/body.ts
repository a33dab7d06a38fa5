// Reads a JSON request body: JSON only (415), bounded (413), well-formed (400), then checked
// against a zod schema that names every bad field (400). Nothing is written before this passes.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { problems } from '@eventide/contract/problems.ts';
import { validate } from './validate.ts';
import type { Upload } from '@eventide/contract/shape.ts';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** How much of a body past the limit is read (and thrown away) so that its sender can read the 413, and for how long. */
const DRAIN_BYTES = (limit: number) => Math.max(4 * 1024 * 1024, 16 * limit);
const DRAIN_MS = 5_000;

/**
 * A 413, after reading what is left of the body, up to a bound: a client that writes its whole
 * body before it reads would otherwise find the connection reset (the server closing on bytes it
 * never read) and never see the answer. The connection closes after it.
 */
async function tooLarge(ctx: Context, limit: number): Promise<never> {
  ctx.set('Connection', 'close');
  const request = ctx.req;
  if (!request.complete && !request.destroyed) {
    await new Promise<void>((resolve) => {
      let read = 0;
      const done = () => {
        clearTimeout(timer);
        request.off('data', count);
        request.pause();
        resolve();
      };
      const count = (chunk: Buffer) => {
        read += chunk.length;
        if (read > DRAIN_BYTES(limit)) done();
      };
      const timer = setTimeout(done, DRAIN_MS);
      request.on('data', count);
      request.once('end', done);
      request.once('close', done);
      request.resume();
    });
  }
  throw problems.tooLarge(limit);
}

/**
 * The media type of a Content-Type header, lower-cased, its parameters left out; undefined where it
 * is not a valid one. As type-is reads it (with media-typer's test), which Koa's `is` is.
 */
function mediaTypeOf(header: string): string | undefined {
  const end = header.indexOf(';');
  const type = (end === -1 ? header : header.slice(0, end)).replace(/^[ \t]+|[ \t]+$/g, '').toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(type) ? type : undefined;
}

/** application/json, or any type whose subtype ends in +json (application/problem+json): what `is('application/json', '+json')` takes. */
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** Whether the request says it has a body (type-is's test, which Koa's `is` applies first): a length, or chunks. */
const saysItHasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(request.headers['content-length']));

export async function readJson(ctx: Context, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  if (!ctx.request.type) {
    throw problems.unsupportedMediaType('send the body as application/json (the Content-Type header is missing)');
  }
  // Read here once, as Koa's `is` would: type-is parsed the header and normalised every type it
  // was asked about on every call (body.int.test.ts holds the two to the same answers).
  const header = ctx.get('Content-Type');
  const mediaType = mediaTypeOf(header);
  if (mediaType === undefined || !isJson(mediaType) || !saysItHasBody(ctx.req)) {
    throw problems.unsupportedMediaType(`send the body as application/json, not ${ctx.request.type}`);
  }
  // Only a header with parameters can name a charset (Koa parses it whole, and takes a malformed one as naming none).
  const charset = header.includes(';') ? ctx.request.charset : '';
  if (charset && charset.toLowerCase() !== 'utf-8') {
    throw problems.unsupportedMediaType(`JSON is read as UTF-8, not ${charset}`);
  }
  const declared = ctx.request.length;
  if (declared !== undefined && declared > limit) return tooLarge(ctx, limit);
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit, length: declared });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return tooLarge(ctx, limit);
    if (type === 'request.size.invalid') throw problems.invalidField('(body)', 'the body is shorter or longer than Content-Length says');
    throw problems.invalidField('(body)', 'the body could not be read');
  }
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw problems.invalidField('(body)', 'a JSON body is required');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw problems.invalidField('(body)', `not valid JSON: ${(error as Error).message}`);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text; bytes that are not UTF-8 are refused rather than stored as replacement characters. */
function decodeUtf8(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw problems.unsupportedMediaType(`JSON is read as UTF-8, and the body is not valid UTF-8 (byte ${at})`);
  }
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  let low = 0;
  let high = bytes.length;
  // The longest valid prefix, found by halving: decoding a prefix is all the decoder offers.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (isUtf8Prefix(bytes.subarray(0, middle))) low = middle;
    else high = middle - 1;
  }
  return low;
}

function isUtf8Prefix(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a body of bytes (a picture): of a media type the operation takes (415), bounded (413),
 * not empty (400). What the bytes really are is for the handler to check.
 */
export async function readUpload(ctx: Context, upload: Upload): Promise<Buffer> {
  const taken = upload.mediaTypes.join(', ');
  if (!ctx.request.type) throw problems.unsupportedMediaType(`send the body as one of ${taken} (the Content-Type header is missing)`);
  if (!upload.mediaTypes.includes(ctx.request.type))
    throw problems.unsupportedMediaType(`send the body as one of ${taken}, not ${ctx.request.type}`);
  const declared = ctx.request.length;
  if (declared !== undefined && declared > upload.maxBytes) return tooLarge(ctx, upload.maxBytes);
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: upload.maxBytes, length: declared });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return tooLarge(ctx, upload.maxBytes);
    if (type === 'request.size.invalid') throw problems.invalidField('(body)', 'the body is shorter or longer than Content-Length says');
    throw problems.invalidField('(body)', 'the body could not be read');
  }
  if (bytes.length === 0) throw problems.invalidField('(body)', 'is empty');
  return bytes;
}

export async function readBody<S extends z.ZodType>(ctx: Context, schema: S, limit?: number): Promise<z.infer<S>> {
  return validate(schema, await readJson(ctx, limit), '');
}
