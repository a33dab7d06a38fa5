// The caller of a use case, as a request makes it (identity/caller.ts).
import type { Context } from 'koa';
import { abandonSignal } from '@eventide/shared/auth/hasher.ts';
import { clientKey } from '@eventide/shared/auth/rate-limit.ts';
import type { Caller } from '../identity/caller.ts';
import { metadataOf } from './actor.ts';

export function callerOf(ctx: Context): Caller {
  return { key: clientKey(ctx), ip: ctx.ip, signal: abandonSignal(ctx), metadata: metadataOf(ctx) };
}
