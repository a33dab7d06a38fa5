// listUsers and getUser, in every version the table serves them: the mount has let through
// admins (the list) and the user themselves or an admin (one profile), and spent the limit.
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { answerOne, findOne, offsetPage, type QueryDeps } from './context.ts';
import { stateAt } from './as-of.ts';

export function userReadHandlers({ readStore, eventStore }: QueryDeps): Pick<Handlers<'query'>, 'listUsers' | 'getUser'> {
  return {
    async listUsers({ ctx, query, represent }) {
      ctx.body = await offsetPage(readStore, 'users', query, represent);
    },
    async getUser({ ctx, params, query, represent, chargeReads }) {
      if (query.at !== undefined) {
        const { state, revision } = await stateAt(eventStore, 'user', params.id, query.at, chargeReads);
        ctx.set('ETag', `"${revision}"`);
        ctx.body = represent(state);
        return;
      }
      answerOne(ctx, await findOne(readStore, 'users', params.id, 'user'), represent);
    },
  };
}
