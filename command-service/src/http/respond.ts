// How every write answers: the entity's new state, its revision as a strong ETag, and the
// global position of its last event (Event-Position), which reads can wait for.
import type { Context } from 'koa';
import type { WriteResult } from '../handle.ts';

export const POSITION_HEADER = 'Event-Position';

export function respondWrite<State>(
  ctx: Context,
  result: WriteResult<State>,
  body: unknown,
  options: { status?: number; location?: string } = {},
): void {
  ctx.status = options.status ?? 200;
  ctx.set('ETag', `"${result.revision}"`);
  ctx.set(POSITION_HEADER, String(result.position));
  if (options.location) ctx.set('Location', options.location);
  ctx.body = body;
}
