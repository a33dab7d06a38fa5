// A small HTTP client for tests: JSON in, parsed JSON (or text) out, headers kept. It keeps the
// cookies the server sets, as a browser would (by name; enough for one site on loopback), and
// never follows redirects, so tests see them.
import { answerClientErrors } from '@eventide/platform/http/client-errors.ts';

export interface Reply {
  /** What was asked: the method and the path with its query. */
  request: { method: string; path: string };
  status: number;
  headers: Headers;
  body: any;
  /** Everything the server sent, for tests that look for what must never be sent. */
  text: string;
}

export interface JsonClient {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Sends a body exactly as given, for malformed input. */
  raw(method: string, path: string, body: string | Uint8Array | undefined, headers: Record<string, string>): Promise<Reply>;
  /** The cookies held now, as a Cookie header would carry them. */
  cookieHeader(): string;
  /** Replaces the cookies held, e.g. with a copy taken earlier. */
  setCookies(header: string): void;
}

const everyReply = new Set<(reply: Reply) => void>();

/**
 * Sees every reply every client of this module gets, from now on: how a test setup checks all
 * the answers a suite receives (infra/test/setup/openapi-conformance.ts). Returns the way to stop.
 */
export function observeEveryReply(observer: (reply: Reply) => void): () => void {
  everyReply.add(observer);
  return () => everyReply.delete(observer);
}

/** Shows the observers a reply another kind of client got: the typed client, a page in Chromium. */
export function reportReply(reply: Pick<Reply, 'request' | 'status' | 'headers' | 'text'>): void {
  let body: unknown = reply.text;
  try {
    body = reply.text ? JSON.parse(reply.text) : undefined;
  } catch {
    // not JSON: the text
  }
  for (const observer of everyReply) observer({ ...reply, body });
}

/** A fetch that reports each reply it gets (reportReply): what the typed client is given in tests. */
export function reportingFetch(send: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await send(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    // A stream (the event stream) is not read here: its client reads it.
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const text = await response.clone().text();
      reportReply({ request: { method, path: url.pathname + url.search }, status: response.status, headers: response.headers, text });
    }
    return response;
  };
}

export interface JsonClientOptions {
  onReply?: (reply: Reply) => void;
  /**
   * The client of a server a test stands up itself (an identity provider, an app of test routes),
   * not of this API: its replies are not shown to observeEveryReply's observers.
   */
  peer?: boolean;
}

export function jsonClient(baseUrl: string, options: JsonClientOptions = {}): JsonClient {
  const jar = new Map<string, string>();

  function keep(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const cut = pair.indexOf('=');
      const name = pair.slice(0, cut).trim();
      const value = pair.slice(cut + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

  async function raw(method: string, path: string, body: string | Uint8Array | undefined, headers: Record<string, string>): Promise<Reply> {
    const cookie = cookieHeader();
    const response = await fetch(baseUrl + path, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...headers },
      ...(body === undefined ? {} : { body: body as BodyInit }),
    });
    keep(response.headers);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const reply = { request: { method, path }, status: response.status, headers: response.headers, body: parsed, text };
    options.onReply?.(reply);
    if (!options.peer) for (const observer of everyReply) observer(reply);
    return reply;
  }
  return {
    raw,
    request: (method, path, body, headers = {}) =>
      raw(method, path, body === undefined ? undefined : JSON.stringify(body), {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      }),
    cookieHeader,
    setCookies(header) {
      jar.clear();
      for (const part of header.split(';')) {
        const cut = part.indexOf('=');
        if (cut > 0) jar.set(part.slice(0, cut).trim(), part.slice(cut + 1).trim());
      }
    },
  };
}

/** Serves a Koa app on an ephemeral loopback port. */
export async function listenOnLoopback(app: { listen: (port: number, host: string) => import('node:http').Server }) {
  const server = app.listen(0, '127.0.0.1');
  answerClientErrors(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}
