// Identity providers from configuration (AUTH_PROVIDERS): a generic OpenID Connect issuer, found
// by discovery, or a plain OAuth 2 provider with its own profile API (GitHub and GitHub
// Enterprise). Each yields who signed in: a stable subject, and an email with whether the
// provider verified it. Client secrets stay here and in the token request.
import type { AuthorizationCode } from 'simple-oauth2';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { PROBLEM_TYPES } from '@eventide/contract/problem-types.ts';
import { AppError } from '@eventide/contract/problems.ts';
import { OPERATIONS } from '@eventide/contract/operations.ts';
import { ConfigError } from '@eventide/kernel/config.ts';

import type { ProviderProfile } from '../identity/provider-sign-in.ts';

export type { ProviderProfile };

export interface AuthorizeParams {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string;
}

export interface Provider {
  name: string;
  /** The issuer whose `iss` the callback must carry (RFC 9207), when the provider has one. */
  issuer(): Promise<{ issuer: string; required: boolean } | undefined>;
  authorizeUrl(params: AuthorizeParams): Promise<string>;
  /** Exchanges the code (server to server, with the PKCE verifier) and reads the profile. */
  signIn(code: string, redirectUri: string, codeVerifier: string, nonce: string): Promise<ProviderProfile>;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;
/** Paths under /auth that a provider name would shadow (/auth/sign-in, /auth/identities/…): the route table's. */
const RESERVED = new Set(
  Object.values(OPERATIONS)
    .map((operation) => operation.path.split('/'))
    .filter(([, first, second]) => first === 'auth' && second !== undefined && !second.startsWith('{'))
    .map(([, , second]) => second!),
);

const oidcConfig = z.strictObject({
  type: z.literal('oidc'),
  issuer: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scope: z.string().default('openid email profile'),
});
const githubConfig = z.strictObject({
  type: z.literal('github'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** For GitHub Enterprise: https://github.example.com and https://github.example.com/api/v3. */
  webUrl: z.url().default('https://github.com'),
  apiUrl: z.url().default('https://api.github.com'),
});
const providersConfig = z.record(
  z.string().regex(NAME, 'provider names are lowercase letters, digits and "-"'),
  z.discriminatedUnion('type', [oidcConfig, githubConfig]),
);

export class ProviderError extends AppError {}
const providerError = (type: 'provider-unavailable' | 'provider-refused', detail: string) =>
  new ProviderError(PROBLEM_TYPES[type].status, { type, title: PROBLEM_TYPES[type].title, detail });
const upstream = (provider: string, what: string) => providerError('provider-unavailable', `${provider}: ${what}`);
const refused = (provider: string, what: string) => providerError('provider-refused', `${provider}: ${what}`);

/**
 * simple-oauth2 and jose, loaded with the first sign-in through a provider: with joi and the rest
 * they pull in, loading them took 170 ms on two cores (2026-11-30) at every start, and most
 * processes have no provider configured.
 */
let libraries: Promise<{ oauth2: typeof import('simple-oauth2'); jose: typeof import('jose') }> | undefined;
const oauthLibraries = () =>
  (libraries ??= Promise.all([import('simple-oauth2'), import('jose')]).then(([oauth2, jose]) => ({ oauth2, jose })));

async function oauthClient(clientId: string, clientSecret: string, authorize: URL, token: URL): Promise<AuthorizationCode> {
  const { AuthorizationCode } = (await oauthLibraries()).oauth2;
  return new AuthorizationCode({
    client: { id: clientId, secret: clientSecret },
    auth: { authorizeHost: authorize.origin, authorizePath: authorize.pathname, tokenHost: token.origin, tokenPath: token.pathname },
    options: { authorizationMethod: 'body' },
  });
}

/** What the token endpoint said, without ever echoing a secret or a code. */
function describeTokenError(error: unknown): { refusedByProvider: boolean; what: string } {
  const boom = error as { output?: { statusCode?: number }; data?: { payload?: { error?: unknown } } };
  const code = boom.data?.payload?.error;
  if (boom.output?.statusCode && boom.output.statusCode < 500 && typeof code === 'string') {
    return { refusedByProvider: true, what: `the token endpoint answered ${code.slice(0, 64)}` };
  }
  return { refusedByProvider: false, what: 'the token endpoint could not be reached or failed' };
}

async function exchange(name: string, client: AuthorizationCode, code: string, redirectUri: string, codeVerifier: string) {
  try {
    return (await client.getToken({ code, redirect_uri: redirectUri, code_verifier: codeVerifier } as never)).token as Record<
      string,
      unknown
    >;
  } catch (error) {
    const { refusedByProvider, what } = describeTokenError(error);
    throw refusedByProvider ? refused(name, what) : upstream(name, what);
  }
}

async function getJson(name: string, url: string, accessToken: string): Promise<unknown> {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'eventide' },
  }).catch(() => undefined);
  if (!response?.ok) throw upstream(name, `${new URL(url).pathname} answered ${response?.status ?? 'nothing'}`);
  return response.json();
}

const discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
  jwks_uri: z.url(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});

function oidcProvider(name: string, config: z.infer<typeof oidcConfig>): Provider {
  let discovered: Promise<{ meta: z.infer<typeof discovery>; client: AuthorizationCode; jwks: JWTVerifyGetKey }> | undefined;
  const discover = () => {
    discovered ??= (async () => {
      const url = `${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const response = await fetch(url).catch(() => undefined);
      if (!response?.ok) throw upstream(name, `discovery at ${url} answered ${response?.status ?? 'nothing'}`);
      const meta = discovery.parse(await response.json());
      if (meta.issuer !== config.issuer) throw upstream(name, `discovery names issuer ${meta.issuer}, not ${config.issuer}`);
      const client = await oauthClient(
        config.clientId,
        config.clientSecret,
        new URL(meta.authorization_endpoint),
        new URL(meta.token_endpoint),
      );
      const { createRemoteJWKSet } = (await oauthLibraries()).jose;
      return { meta, client, jwks: createRemoteJWKSet(new URL(meta.jwks_uri)) };
    })();
    // A failed discovery is tried again on the next sign-in.
    discovered.catch(() => (discovered = undefined));
    return discovered;
  };

  return {
    name,
    async issuer() {
      const { meta } = await discover();
      return { issuer: meta.issuer, required: meta.authorization_response_iss_parameter_supported === true };
    },
    async authorizeUrl({ redirectUri, state, codeChallenge, nonce }) {
      const { client } = await discover();
      return client.authorizeURL({
        redirect_uri: redirectUri,
        scope: config.scope,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        nonce,
      } as never);
    },
    async signIn(code, redirectUri, codeVerifier, nonce) {
      const { meta, client, jwks } = await discover();
      const token = await exchange(name, client, code, redirectUri, codeVerifier);
      if (typeof token.id_token !== 'string' || typeof token.access_token !== 'string')
        throw refused(name, 'the token response has no ID token');
      const { jwtVerify } = (await oauthLibraries()).jose;
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(token.id_token, jwks, { issuer: meta.issuer, audience: config.clientId }));
      } catch {
        throw refused(name, 'the ID token is not valid for this client');
      }
      if (claims.nonce !== nonce || typeof claims.sub !== 'string') throw refused(name, 'the ID token was not issued for this sign-in');
      const info = z
        .object({ sub: z.string(), email: z.string().optional(), email_verified: z.boolean().optional(), name: z.string().optional() })
        .safeParse(await getJson(name, meta.userinfo_endpoint, token.access_token));
      if (!info.success || info.data.sub !== claims.sub) throw refused(name, 'the userinfo does not match the ID token');
      return { subject: claims.sub, email: info.data.email, emailVerified: info.data.email_verified === true, name: info.data.name };
    },
  };
}

function githubProvider(name: string, config: z.infer<typeof githubConfig>): Provider {
  const web = config.webUrl.replace(/\/$/, '');
  const api = config.apiUrl.replace(/\/$/, '');
  let made: Promise<AuthorizationCode> | undefined;
  const client = () =>
    (made ??= oauthClient(
      config.clientId,
      config.clientSecret,
      new URL(`${web}/login/oauth/authorize`),
      new URL(`${web}/login/oauth/access_token`),
    ));
  return {
    name,
    issuer: async () => undefined,
    async authorizeUrl({ redirectUri, state, codeChallenge }) {
      return (await client()).authorizeURL({
        redirect_uri: redirectUri,
        scope: 'read:user user:email',
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      } as never);
    },
    async signIn(code, redirectUri, codeVerifier) {
      const token = await exchange(name, await client(), code, redirectUri, codeVerifier);
      if (typeof token.access_token !== 'string') throw refused(name, 'the token response has no access token');
      const user = z
        .object({ id: z.number(), name: z.string().nullish(), login: z.string() })
        .parse(await getJson(name, `${api}/user`, token.access_token));
      const emails = z
        .array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }))
        .parse(await getJson(name, `${api}/user/emails`, token.access_token));
      const primary = emails.find((e) => e.primary) ?? emails.find((e) => e.verified);
      return { subject: String(user.id), email: primary?.email, emailVerified: primary?.verified === true, name: user.name ?? user.login };
    },
  };
}

/** Parses AUTH_PROVIDERS; throws with a message naming what is wrong (never a secret). */
export function loadProviders(json: string | undefined): Map<string, Provider> {
  const providers = new Map<string, Provider>();
  if (!json) return providers;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ConfigError('AUTH_PROVIDERS: not valid JSON');
  }
  const parsed = providersConfig.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(`AUTH_PROVIDERS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  for (const [name, config] of Object.entries(parsed.data)) {
    if (RESERVED.has(name)) throw new ConfigError(`AUTH_PROVIDERS: "${name}" is a path of its own under /auth; choose another name`);
    providers.set(name, config.type === 'oidc' ? oidcProvider(name, config) : githubProvider(name, config));
  }
  return providers;
}
