// The command side's part of a person's export (docs/privacy.md#export): how they sign in, from
// their private account stream, without any secret (whether a password is set, never its hash).
import type { PersonalDataSections } from '@eventide/runtime/export-sections.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { loadAccount } from './account.ts';

export function addAccountSections(sections: PersonalDataSections, store: EventStore): void {
  sections.add('signIn', async (userId) => {
    const { account } = await loadAccount(store, userId);
    return {
      password: account.passwordHash !== undefined,
      providers: account.identities.map(({ provider, subject }) => ({ provider, subject })),
      verifiedEmail: account.verifiedEmail ?? null,
      roles: [...account.roles],
    };
  });
}
