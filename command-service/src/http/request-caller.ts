// The caller of a use case (caller.ts), as a request makes it: the Koa side of it.
import type { Context } from 'koa';
import { abandonSignal } from '@eventide/platform/auth/hasher.ts';
import { clientKey } from '@eventide/platform/auth/rate-limit.ts';
import type { Caller } from '../caller.ts';
import { metadataOf } from './actor.ts';

export function callerOf(ctx: Context): Caller {
  return { key: clientKey(ctx), ip: ctx.ip, signal: abandonSignal(ctx), metadata: metadataOf(ctx) };
}
