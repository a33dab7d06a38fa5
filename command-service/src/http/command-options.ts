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

/**
 * The id of an entity a POST creates, and the options to create it with: the id is derived from
 * the Idempotency-Key, so that a retry finds the entity; without one it is new, so no stream holds
 * it and the command reads none (CommandOptions.unwritten).
 */
export function newEntity(options: CommandOptions): { id: string; options: CommandOptions } {
  if (options.idempotency) return { id: derivedId('entity', options.idempotency.scopedKey), options };
  return { id: newId(), options: { ...options, unwritten: true } };
}
