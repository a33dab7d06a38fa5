// The request headers that shape a write, parsed once by the mount: If-Match (optimistic
// concurrency) and Idempotency-Key (safe retries); and Last-Event-ID, where a stream resumes.
import type { Context } from 'koa';
import { problems } from '@eventide/contract/problems.ts';
import type { ExpectedRevisions } from '@eventide/kernel/models/model.ts';

const ENTITY_TAG = /^(W\/)?"(\d{1,15})"$/;

/** If-Match: `*` (the entity must exist) or the revisions the client accepts. */
export function parseIfMatch(ctx: Context): ExpectedRevisions | undefined {
  const header = ctx.get('If-Match').trim();
  if (!header) return undefined;
  if (header === '*') return '*';
  return header.split(',').map((part) => {
    const match = ENTITY_TAG.exec(part.trim());
    // If-Match uses the strong comparison (RFC 9110 13.1.1): a weak tag never matches.
    if (!match || match[1]) {
      throw problems.invalidField(
        'If-Match',
        `expected "*" or entity tags such as "3" as sent in ETag, got ${JSON.stringify(part.trim())}`,
      );
    }
    return Number(match[2]);
  });
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The Idempotency-Key as sent, checked; command-service binds it to who sent it and to what. A key
 * sent empty (or blank, which Node reads as empty) is refused: a client that meant to send one
 * would otherwise get two writes from its retry.
 */
export function parseIdempotencyKey(ctx: Context): string | undefined {
  if (ctx.req.headers['idempotency-key'] === undefined) return undefined;
  const key = ctx.get('Idempotency-Key');
  if (!KEY.test(key)) throw problems.invalidField('Idempotency-Key', 'use 1 to 255 visible ASCII characters, such as a UUID');
  return key;
}

/** The position a reconnecting event stream resumes after. */
export function parseLastEventId(ctx: Context): number | undefined {
  const header = ctx.get('Last-Event-ID');
  if (!header) return undefined;
  if (!/^\d{1,15}$/.test(header)) throw problems.invalidField('Last-Event-ID', 'must be a position as given in an event id');
  return Number(header);
}
