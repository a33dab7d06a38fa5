// A real OpenID provider (oidc-provider, a certified implementation) on 127.0.0.1 for tests,
// with its development interactions driven without a browser: the authorization request, the
// login form, the consent form, and the redirect back with code, state and iss. It counts
// token requests and remembers every token and code it handed out, so tests can check that none
// of them leaks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { jsonClient } from '@eventide/testing/json-client.ts';

export interface TestAccount {
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** POSTs to the token endpoint so far. */
  tokenRequests(): number;
  /** Every access token, ID token and code the provider issued. */
  issued: Set<string>;
  /** Plays the browser at the provider: from the authorization URL to the redirect back. */
  authorize(authorizeUrl: string, accountId: string): Promise<URL>;
  /** AUTH_PROVIDERS for the app. */
  config(name: string): string;
  /** Starts answering; the redirect URI must be known first. */
  serve(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startTestProvider(): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'eventide-test';
  const clientSecret = `client-secret-${crypto.randomUUID()}`;
  const accounts = new Map<string, TestAccount>();
  const issued = new Set<string>();
  let tokenRequests = 0;

  function recordTokens(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || !req.url?.startsWith('/token')) return;
    tokenRequests++;
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk) chunks.push(Buffer.from(chunk as Buffer));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Buffer));
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf-8')) as Record<string, unknown>;
        for (const key of ['access_token', 'id_token', 'refresh_token']) if (typeof body[key] === 'string') issued.add(body[key] as string);
      } catch {
        // not a token response
      }
      return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
    }) as typeof res.end;
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    issued,
    tokenRequests: () => tokenRequests,
    config: (name) => JSON.stringify({ [name]: { type: 'oidc', issuer, clientId, clientSecret } }),
    serve(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        // PKCE for every client, confidential ones too.
        pkce: { required: () => true },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        features: { devInteractions: { enabled: true } },
        cookies: { keys: ['test-provider-cookie-key'] },
        async findAccount(_ctx, sub) {
          const account = accounts.get(sub);
          if (!account) return undefined;
          return {
            accountId: sub,
            claims: async () => ({
              sub,
              email: account.email,
              email_verified: account.emailVerified,
              ...(account.name ? { name: account.name } : {}),
            }),
          };
        },
      });
      const handle = provider.callback();
      server.on('request', (req, res) => {
        recordTokens(req, res);
        handle(req, res);
      });
    },
    async authorize(authorizeUrl, accountId) {
      const browser = jsonClient(issuer, { peer: true });
      let location = new URL(authorizeUrl);
      for (let step = 0; step < 10; step++) {
        if (location.origin !== issuer) {
          const code = location.searchParams.get('code');
          if (code) issued.add(code);
          return location;
        }
        const path = location.pathname + location.search;
        let reply = await browser.request('GET', path);
        const interaction = /^\/interaction\/[^/]+$/.exec(location.pathname);
        if (interaction) {
          const prompt =
            /name="prompt" value="(login|consent)"/.exec(String(reply.body))?.[1] ??
            (String(reply.body).includes('name="login"') ? 'login' : 'consent');
          const form = new URLSearchParams(prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt });
          reply = await browser.raw('POST', location.pathname, form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
        }
        const next = reply.headers.get('location');
        if (!next)
          throw new Error(`the provider stopped at ${location.pathname} with ${reply.status}: ${String(reply.text).slice(0, 300)}`);
        location = new URL(next, issuer);
      }
      throw new Error('too many redirects at the provider');
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
