// A small HTTP client for tests: JSON in, parsed JSON (or text) out, headers kept.
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export interface JsonClient {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Sends a body exactly as given, for malformed input. */
  raw(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Reply>;
}

export function jsonClient(baseUrl: string): JsonClient {
  async function raw(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Reply> {
    const response = await fetch(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }
  return {
    raw,
    request: (method, path, body, headers = {}) =>
      raw(method, path, body === undefined ? undefined : JSON.stringify(body), {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      }),
  };
}

/** Serves a Koa app on an ephemeral loopback port. */
export async function listenOnLoopback(app: { listen: (port: number, host: string) => import('node:http').Server }) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}
