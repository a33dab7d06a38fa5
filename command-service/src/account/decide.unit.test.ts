import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/given.ts';
import type { AccountEvent } from './account.ts';
import { accountAggregate } from './decide.ts';

const given = deciderSpec(accountAggregate);
const github = { provider: 'github', subject: '42' };
const google = { provider: 'google', subject: 'g-7' };
const password = (hash: string): AccountEvent => ({ type: 'account:password-set', data: { hash } });
const linked = (identity: typeof github): AccountEvent => ({ type: 'account:identity-linked', data: identity });

describe('account decider', () => {
  describe('SetPassword', () => {
    it('sets a first password', () =>
      given()
        .when({ type: 'SetPassword', hash: 'h1', replacing: undefined })
        .then([password('h1')]));
    it('replaces the password the caller checked', () =>
      given(password('h1'))
        .when({ type: 'SetPassword', hash: 'h2', replacing: 'h1' })
        .then([password('h2')]));
    it('refuses when the password changed after the caller checked it', () =>
      given(password('h1'), password('h2'))
        .when({ type: 'SetPassword', hash: 'h3', replacing: 'h1' })
        .thenRefuses('conflict', /changed by another request/));
    it('refuses a first password when one was set meanwhile (a racing sign-up)', () =>
      given(password('h1'))
        .when({ type: 'SetPassword', hash: 'h2', replacing: undefined })
        .thenRefuses('conflict', /changed by another request/));
  });

  describe('LinkIdentity', () => {
    it('links a new identity and records the address the provider verified', () =>
      given()
        .when({ type: 'LinkIdentity', identity: github, verifiedEmail: 'ann@example.com' })
        .then([linked(github), { type: 'account:email-verified', data: { email: 'ann@example.com' } }]));
    it('records nothing when both are known already', () =>
      given(linked(github), { type: 'account:email-verified', data: { email: 'ann@example.com' } })
        .when({ type: 'LinkIdentity', identity: github, verifiedEmail: 'ann@example.com' })
        .thenNothing());
    it('does not verify an address the provider did not vouch for', () =>
      given()
        .when({ type: 'LinkIdentity', identity: github, verifiedEmail: undefined })
        .then([linked(github)]));
  });

  describe('UnlinkProvider', () => {
    it('unlinks every identity of the provider', () =>
      given(password('h1'), linked(github), linked({ provider: 'github', subject: '43' }))
        .when({ type: 'UnlinkProvider', provider: 'github' })
        .then([
          { type: 'account:identity-unlinked', data: github },
          { type: 'account:identity-unlinked', data: { provider: 'github', subject: '43' } },
        ]));
    it('refuses a provider that is not linked', () =>
      given(password('h1'))
        .when({ type: 'UnlinkProvider', provider: 'github' })
        .thenRefuses('not-found', /github/));
    it('refuses to remove the last way to sign in', () =>
      given(linked(github))
        .when({ type: 'UnlinkProvider', provider: 'github' })
        .thenRefuses('conflict', /only way to sign in/));
    it('allows it while another provider is linked', () =>
      given(linked(github), linked(google))
        .when({ type: 'UnlinkProvider', provider: 'github' })
        .then([{ type: 'account:identity-unlinked', data: github }]));
  });

  describe('SetRole', () => {
    it('grants a role', () =>
      given()
        .when({ type: 'SetRole', role: 'admin', granted: true })
        .then([{ type: 'account:role-granted', data: { role: 'admin' } }]));
    it('records nothing when the role is held already', () =>
      given({ type: 'account:role-granted', data: { role: 'admin' } })
        .when({ type: 'SetRole', role: 'admin', granted: true })
        .thenNothing());
    it('revokes a held role', () =>
      given({ type: 'account:role-granted', data: { role: 'admin' } })
        .when({ type: 'SetRole', role: 'admin', granted: false })
        .then([{ type: 'account:role-revoked', data: { role: 'admin' } }]));
    it('records nothing when revoking a role not held', () =>
      given().when({ type: 'SetRole', role: 'admin', granted: false }).thenNothing());
  });
});
