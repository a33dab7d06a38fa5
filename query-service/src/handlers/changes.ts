// streamChanges (GET /changes): the signed-in user's live stream of the read models (live/stream.ts).
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { requestLogger } from '@eventide/platform/http/request-context.ts';
import type { QueryDeps } from './context.ts';
import { openChangeStream } from '../live/stream.ts';

export function changeStreamHandlers({ live }: QueryDeps): Pick<Handlers<'query'>, 'streamChanges'> {
  return {
    async streamChanges({ ctx, query, principal, lastEventId, chargeReads }) {
      const from = lastEventId ?? (query.after === undefined ? undefined : Number(query.after));
      await openChangeStream(live, { ctx, who: principal, of: query.of, from, log: requestLogger(ctx), chargeReads });
    },
  };
}
