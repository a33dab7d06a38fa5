// One user per provider identity: claims on `identity-<keyed hash of provider and subject>` that bind
// while the holder's account lists the identity (claims.ts). Linking claims first, then records
// the link in the account; unlinking is the account event alone.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { uniqueClaims, type ClaimNames, type Claims } from '../claims.ts';
import { accountModel, accountStream, hasIdentity, type Identity } from '../account/account.ts';

export const identityKey = (identity: Identity) => `${identity.provider}\n${identity.subject}`;

function parseKey(key: string): Identity {
  const cut = key.indexOf('\n');
  return { provider: key.slice(0, cut), subject: key.slice(cut + 1) };
}

export function identityClaims(store: EventStore, names: ClaimNames, now?: () => Date): Claims {
  return uniqueClaims(
    store,
    names,
    {
      kind: 'identity',
      normalize: (key) => key,
      holderStream: accountStream,
      holder: accountModel,
      holds: (account, key) => hasIdentity(account, parseKey(key)),
      conflict: () => refuse.conflict('this provider account is already linked to another user'),
    },
    now,
  );
}
