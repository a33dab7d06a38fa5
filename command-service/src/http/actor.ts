// Who is acting. Sign-in (a later issue) sets ctx.state.actor from the session; until then
// every request acts as anonymous, and events already carry the field.
import type { Context } from 'koa';
import type { Actor, EventMetadata } from '@eventide/kernel/events/catalogue.ts';

export function actorOf(ctx: Context): Actor {
  return (ctx.state.actor as Actor | undefined) ?? { type: 'anonymous' };
}

export function metadataOf(ctx: Context): Omit<EventMetadata, 'causationId'> {
  return { correlationId: ctx.state.correlationId as string, actor: actorOf(ctx) };
}
