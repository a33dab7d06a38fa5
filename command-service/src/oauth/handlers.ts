// Sign-in through identity providers: listProviders (which ones), startProviderSignIn (redirect
// there), linkProvider (the same, to link it to the signed-in user) and providerCallback (back
// from there): api/operations.ts. docs/auth.md.
import type { Context } from 'koa';
import { requestOrigin } from '@eventide/platform/auth/origin.ts';
import { signIn } from '@eventide/platform/auth/session.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { ProvidersBody } from '@eventide/contract/resources/auth/schemas.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import { metadataOf } from '../http/actor.ts';
import type { Identity } from '../identity/identity.ts';
import { beginFlow, codeChallengeOf, completeFlow, newFlow, safeReturnTo, takeFlow, type FlowSeal } from './flow.ts';
import type { Provider } from './providers.ts';

export interface OAuthDeps {
  /** Where a completed sign-in is marked, so that its callback cannot complete twice. */
  sessions: SessionStore;
  /** Seals a sign-in's state into its cookie (flow.ts). */
  seal: FlowSeal;
  providers: Map<string, Provider>;
  /** Where the provider sends the browser back: `<public origin>/auth/callback`; unset: from the request. */
  publicOrigin?: string | undefined;
}

type OAuthOperations = 'listProviders' | 'startProviderSignIn' | 'linkProvider' | 'providerCallback';

export function oauthHandlers(identity: Pick<Identity, 'providerSignIn'>, oauth: OAuthDeps): Pick<Handlers<'command'>, OAuthOperations> {
  function providerOf(name: string): Provider {
    const provider = oauth.providers.get(name);
    if (!provider) throw problems.notFound(`identity provider ${JSON.stringify(name.slice(0, 64))}`);
    return provider;
  }

  async function redirectToProvider(ctx: Context, provider: Provider, returnToAsked: string | undefined, linkUserId?: string) {
    const returnTo = safeReturnTo(returnToAsked);
    const redirectUri = `${oauth.publicOrigin ?? requestOrigin(ctx)}/auth/callback`;
    const flow = newFlow(provider.name, redirectUri, returnTo, linkUserId);
    const url = await provider.authorizeUrl({
      redirectUri,
      state: flow.state,
      codeChallenge: codeChallengeOf(flow.codeVerifier),
      nonce: flow.nonce,
    });
    beginFlow(ctx, oauth.seal, flow);
    ctx.set('Cache-Control', 'no-store');
    // A page's script that asks for JSON gets the address to send the browser to: a page whose
    // policy limits where forms may go (form-action 'self') cannot follow a form's redirect there.
    if (ctx.method === 'POST' && ctx.accepts('html', 'json') === 'json') {
      ctx.body = { location: url };
      return;
    }
    seeOther(ctx, url);
  }

  return {
    async providerCallback({ ctx, query }) {
      ctx.set('Cache-Control', 'no-store');
      const flow = await takeFlow(ctx, oauth.seal, oauth.sessions, query.state);
      const provider = oauth.providers.get(flow.provider);
      if (!provider) throw problems.notFound(`identity provider ${JSON.stringify(flow.provider)}`);

      // Mix-up defence (RFC 9207): the answer must come from the issuer this flow went to.
      const { iss } = query;
      const expected = await provider.issuer();
      if (expected && (iss !== undefined ? iss !== expected.issuer : expected.required)) {
        throw problems.invalidField('iss', `does not name the provider this sign-in was started with (${provider.name})`);
      }
      const { error } = query;
      if (error) {
        throw problems.unauthenticated(`${provider.name} did not sign you in (${error.slice(0, 64)}); start again`);
      }
      const { code } = query;
      if (!code) throw problems.invalidField('code', 'is required');

      if (flow.linkUserId && ctx.state.user?.id !== flow.linkUserId) {
        throw problems.forbidden('the link was started by another session; sign in and start it again');
      }
      const profile = await provider.signIn(code, flow.redirectUri, flow.codeVerifier, flow.nonce);
      await completeFlow(oauth.sessions, flow);
      const resolution = await identity.providerSignIn(
        { provider: provider.name, subject: profile.subject },
        profile,
        flow.linkUserId,
        metadataOf(ctx),
      );
      if (!flow.linkUserId) await signIn(ctx, { id: resolution.userId, roles: resolution.roles });
      seeOther(ctx, flow.returnTo);
    },

    // Which providers a sign-in page may offer: their names only.
    listProviders({ ctx }) {
      const body: ProvidersBody = { providers: [...oauth.providers.keys()].map((name) => ({ name })) };
      ctx.body = body;
    },

    startProviderSignIn: ({ ctx, params, query }) => redirectToProvider(ctx, providerOf(params.provider), query.returnTo),

    // A POST, so that another site cannot start a link for a signed-in user (Origin check, SameSite).
    linkProvider: ({ ctx, params, query, user }) => redirectToProvider(ctx, providerOf(params.provider), query.returnTo, user.id),
  };
}

/**
 * 303 to `url`, with no body: what the OpenAPI document describes, and all a browser reads (Koa's
 * redirect would add a "Redirecting to" page that no one sees).
 */
function seeOther(ctx: Context, url: string): void {
  ctx.status = 303;
  ctx.redirect(url);
  ctx.body = '';
}
