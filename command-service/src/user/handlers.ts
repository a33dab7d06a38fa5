// The profile operations of the command service (changeUser, replaceUser: api/operations.ts),
// in every version the table serves them; sign-up and erasure are the identity module's. The
// mount has checked that the caller is the user or an admin, and spent the profile limit.
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { commandOptions } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import type { BeforeNewAddress, userCommands } from './commands.ts';

export function userHandlers(run: ReturnType<typeof userCommands>): Pick<Handlers<'command'>, 'changeUser' | 'replaceUser'> {
  // Each change of address may answer that an address is taken (docs/auth.md, "Who can learn
  // that an address has an account"): spent only when the address really changes (api/limits.ts),
  // from the user's budget and from their address's, which every channel that could tell shares.
  const beforeNewAddress =
    (input: { spend(limit: 'email-change' | 'account-answer'): Promise<void> }): BeforeNewAddress =>
    async () => {
      await input.spend('email-change');
      await input.spend('account-answer');
    };
  return {
    async changeUser(input) {
      const { ctx, params, body } = input;
      const result = await run(params.id, { type: 'ChangeUser', changes: body }, commandOptions(input, body), beforeNewAddress(input));
      respondWrite(ctx, result, input.represent(result.state));
    },
    async replaceUser(input) {
      const { ctx, params, body } = input;
      const result = await run(params.id, { type: 'ReplaceUser', profile: body }, commandOptions(input, body), beforeNewAddress(input));
      respondWrite(ctx, result, input.represent(result.state));
    },
  };
}
