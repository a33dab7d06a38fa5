// What every write route passes to handle(): who acts, and the request's conditions.
import type { Context } from 'koa';
import { derivedId, newId } from '@eventide/shared/ids.ts';
import type { CommandOptions } from '../handle.ts';
import { metadataOf } from './actor.ts';
import { parseIdempotency, parseIfMatch } from './conditions.ts';

export function commandOptions(ctx: Context, body: unknown): CommandOptions {
  const metadata = metadataOf(ctx);
  return { metadata, ifMatch: parseIfMatch(ctx), idempotency: parseIdempotency(ctx, metadata.actor, body) };
}

/** The id of an entity a POST creates: derived from the Idempotency-Key, so a retry finds it. */
export function newEntityId(options: CommandOptions): string {
  return options.idempotency ? derivedId('entity', options.idempotency.scopedKey) : newId();
}
