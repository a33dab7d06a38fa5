// Sign-in: by password, by an identity provider, the session: this resource's part of the route table (operations.ts). Carries no schema code, so
// that a browser bundle (the typed client) can import it; the shapes are beside it (shapes.ts).
import type { Operation } from '../../operation.ts';

const provider = 'the provider, as configured (docs/auth.md)';

export const AUTH_OPERATIONS = {
  // Sign-in.
  signIn: {
    service: 'command',
    method: 'post',
    path: '/auth/sign-in',
    access: 'public',
    tag: 'auth',
    summary: 'Sign in with an email and a password',
    refuses: ['unauthenticated', 'busy', 'rate-limited'],
  },
  signOut: {
    service: 'command',
    method: 'post',
    path: '/auth/sign-out',
    access: 'public',
    tag: 'auth',
    summary: 'Sign out',
  },
  getSession: {
    service: 'command',
    method: 'get',
    path: '/auth/session',
    access: 'signed-in',
    tag: 'auth',
    summary: 'The session: who is signed in, until when, and their sign-in methods',
  },
  setPassword: {
    service: 'command',
    method: 'put',
    path: '/auth/password',
    access: 'signed-in',
    tag: 'auth',
    summary: 'Set or change the password',
    refuses: ['unprocessable', 'busy', 'rate-limited'],
  },
  unlinkProvider: {
    service: 'command',
    method: 'delete',
    path: '/auth/identities/{provider}',
    access: 'signed-in',
    tag: 'auth',
    summary: `Unlink a provider from the account (${provider})`,
    refuses: ['conflict'],
  },
  listProviders: {
    service: 'command',
    method: 'get',
    path: '/auth/providers',
    access: 'public',
    tag: 'auth',
    summary: 'The identity providers one may sign in with',
  },
  startProviderSignIn: {
    service: 'command',
    method: 'get',
    path: '/auth/{provider}',
    access: 'public',
    tag: 'auth',
    summary: `Sign in with a provider: redirects to it (${provider}); ?returnTo= a path of this site`,
  },
  linkProvider: {
    service: 'command',
    method: 'post',
    path: '/auth/{provider}/link',
    access: 'signed-in',
    tag: 'auth',
    summary: `Link a provider to the signed-in account: redirects to it (${provider}), or with Accept: application/json says where to go`,
  },
  providerCallback: {
    service: 'command',
    method: 'get',
    path: '/auth/callback',
    access: 'public',
    tag: 'auth',
    summary: 'Where the provider sends the browser back (OAuth 2 authorization code)',
    refuses: [
      'unauthenticated',
      'provider-refused',
      'provider-unavailable',
      'email-not-verified',
      'account-deleted',
      'account-exists',
      'conflict',
    ],
  },
} as const satisfies Record<string, Operation>;
