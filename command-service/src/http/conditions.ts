// The request headers that shape a write: If-Match (optimistic concurrency) and
// Idempotency-Key (safe retries), and the entity id in the path.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Actor } from '@eventide/shared/events/catalogue.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { isUuid } from '@eventide/shared/ids.ts';
import type { IfMatch, Idempotency } from '../handle.ts';

const ENTITY_TAG = /^(W\/)?"(\d{1,15})"$/;

export function parseIfMatch(ctx: Context): IfMatch | undefined {
  const header = ctx.get('If-Match').trim();
  if (!header) return undefined;
  if (header === '*') return '*';
  const revisions = header.split(',').map((part) => {
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
  return revisions;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The key is bound to who sent it and to what, so two clients' keys never meet. */
export function parseIdempotency(ctx: Context, actor: Actor, body: unknown): Idempotency | undefined {
  const key = ctx.get('Idempotency-Key');
  if (!key) return undefined;
  if (!KEY.test(key)) {
    throw problems.invalidField('Idempotency-Key', 'use 1 to 255 visible ASCII characters, such as a UUID');
  }
  const who = actor.type === 'user' ? `user:${actor.userId}` : actor.type;
  const scopedKey = JSON.stringify([who, ctx.method, ctx.path, key]);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([ctx.method, ctx.path, body ?? null]))
    .digest('hex');
  return { scopedKey, fingerprint };
}

/** Ids are UUIDs; anything else cannot name an entity, so it is not found rather than malformed. */
export function entityId(ctx: Context, param: string, what: string): string {
  const value = (ctx.params as Record<string, string | undefined>)[param] ?? '';
  if (!isUuid(value)) throw problems.notFound(`${what} ${JSON.stringify(value.slice(0, 64))}`);
  return value.toLowerCase();
}
