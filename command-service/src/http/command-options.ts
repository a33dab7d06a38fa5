// What every write handler passes to handle(): who acts, and the request's conditions, as the
// mount parsed them (If-Match, Idempotency-Key).
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Actor } from '@eventide/kernel/events/catalogue.ts';
import type { ExpectedRevisions } from '@eventide/kernel/models/model.ts';
import type { CommandOptions, Idempotency } from '../handle.ts';
import { metadataOf } from './actor.ts';

/** The part of a handler's input a write's options come from. */
export interface WriteRequest {
  ctx: Context;
  ifMatch?: ExpectedRevisions | undefined;
  idempotencyKey: string | undefined;
}

/** The key is bound to who sent it and to what, so two clients' keys never meet. */
function idempotencyOf(ctx: Context, key: string | undefined, actor: Actor, fingerprinted: unknown): Idempotency | undefined {
  if (key === undefined) return undefined;
  const who = actor.type === 'user' ? `user:${actor.userId}` : actor.type;
  const scopedKey = JSON.stringify([who, ctx.method, ctx.path, key]);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([ctx.method, ctx.path, fingerprinted ?? null]))
    .digest('hex');
  return { scopedKey, fingerprint };
}

/** `fingerprinted`: what a repeat with the same key must send again (the body, or the part of it that may be hashed). */
export function commandOptions(request: WriteRequest, fingerprinted: unknown): CommandOptions {
  const metadata = metadataOf(request.ctx);
  return {
    metadata,
    ifMatch: request.ifMatch,
    idempotency: idempotencyOf(request.ctx, request.idempotencyKey, metadata.actor, fingerprinted),
  };
}
