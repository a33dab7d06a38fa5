// Malformed and adversarial requests for every route, as fast-check arbitraries, and the rules
// every answer must keep: never a 5xx (beyond the two planned 503s), a problem+json that names
// the field for a refused input, and nothing secret in any answer. Used in-process (where the
// event store is also checked for partial writes) and against the real process (for memory).
import fc from 'fast-check';

export interface Route {
  methods: string[];
  path: string;
}

/** What the fuzzer aims at: ids that exist, and sessions, so that requests get past the first checks. */
export interface Targets {
  users: string[];
  products: string[];
  orders: string[];
  documents: string[];
  /** Cookie headers: an admin's, a plain user's. */
  cookies: string[];
  /** Strings that must never appear in an answer (hash prefixes, session ids, passwords). */
  secrets: string[];
}

export interface FuzzRequest {
  /** The route it was made for, as the router names it (`/users/:id`). */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'PURGE'];

const nasty = fc.constantFrom(
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e',
  '😀'.repeat(50),
  'a'.repeat(5000),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$ne":null}',
  '__proto__',
  'constructor',
  '-1',
  '0',
  '1e309',
  'NaN',
  '9007199254740993',
  'true',
  'null',
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), nasty);
const ids = (targets: Targets) => fc.oneof(fc.constantFrom(...targets.users, ...targets.products, ...targets.orders), fc.uuid(), text);

function pathOf(template: string, targets: Targets): fc.Arbitrary<string> {
  const parts = template.split('/').map((part) => {
    if (!part.startsWith(':')) return fc.constant(part);
    const value =
      part === ':id' && template.startsWith('/collab')
        ? fc.oneof(fc.constantFrom(...targets.documents), text)
        : part === ':provider'
          ? fc.oneof(fc.constantFrom('acme', 'github', 'callback'), text)
          : ids(targets);
    return value.map((v) => encodeURIComponent(v));
  });
  return fc.tuple(...parts).map((segments) => segments.join('/'));
}

const QUERY_NAMES = [
  'page',
  'limit',
  'after',
  'cursor',
  'q',
  'userId',
  'status',
  'types',
  'version',
  'at',
  'returnTo',
  'code',
  'state',
  'iss',
  'error',
  'doc',
  'sort',
  'q[$regex]',
  'limit[]',
  '__proto__',
];

const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.oneof(text, fc.integer({ min: -5, max: 200 }).map(String))), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : ''));

/** Present about `percent` per cent of the time. */
const sometimes = <T>(percent: number, arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: percent, arbitrary: arb }, { weight: 100 - percent, arbitrary: fc.constant(undefined) });

function headersOf(targets: Targets) {
  return fc
    .record({
      'content-type': fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            'application/json; charset=utf-8',
            'application/json; charset=latin1',
            'application/merge-patch+json',
            'text/plain',
            'multipart/form-data; boundary=x',
          ),
        },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      cookie: sometimes(
        85,
        fc.oneof(
          { weight: 9, arbitrary: fc.constantFrom(...targets.cookies) },
          { weight: 1, arbitrary: fc.constant('eventide.sid=forged; eventide.sid.sig=forged') },
        ),
      ),
      'if-match': sometimes(15, fc.oneof(fc.constantFrom('"0"', '"1"', '*', 'W/"0"', '"99999999999999999"'), text)),
      'idempotency-key': sometimes(20, fc.oneof(fc.uuid(), text)),
      'wait-for-position': sometimes(10, fc.oneof(fc.constantFrom('0', '1', '999999999999999', '-1'), text)),
      origin: sometimes(5, fc.constantFrom('https://evil.example', 'null')),
      'last-event-id': sometimes(5, fc.oneof(fc.constantFrom('0', '5'), text)),
    })
    .map((headers) => {
      const clean: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        // Only what fetch can send: a header value is visible ASCII and spaces.
        if (value !== undefined && /^[\x20-\x7e]*$/.test(value)) clean[name] = value;
      }
      // A read asked to wait must not wait: the fuzzer is about answers, not about time.
      if (clean['wait-for-position']) clean.prefer = 'wait=0';
      return clean;
    });
}

/** A body that is almost right for the route, with one thing wrong. */
function nearlyValid(path: string, targets: Targets): fc.Arbitrary<unknown> {
  const user = fc.record(
    { name: text, email: fc.oneof(fc.emailAddress(), text), password: fc.oneof(fc.string({ minLength: 8, maxLength: 20 }), text) },
    { requiredKeys: [] },
  );
  const price = fc.record(
    {
      amount: fc.oneof(fc.integer(), fc.double(), fc.constant(9_000_000_001), text),
      currency: fc.oneof(fc.constantFrom('EUR', 'XYZ', 'eur', 'US'), text),
    },
    { requiredKeys: [] },
  );
  const product = fc.record(
    { name: text, price, description: text, sku: fc.option(text), category: fc.option(text) },
    { requiredKeys: [] },
  );
  const line = fc.record(
    {
      productId: fc.oneof(fc.constantFrom(...targets.products), text),
      quantity: fc.oneof(fc.integer({ min: -1, max: 10_001 }), fc.double()),
    },
    { requiredKeys: [] },
  );
  const order = fc.record(
    {
      userId: fc.oneof(fc.constantFrom(...targets.users), text),
      lines: fc.array(line, { maxLength: 3 }),
      status: fc.oneof(fc.constantFrom('draft', 'placed', 'paid', 'cancelled', 'lost'), text),
    },
    { requiredKeys: [] },
  );
  const signIn = fc.record({ email: fc.oneof(fc.emailAddress(), text), password: text, currentPassword: text }, { requiredKeys: [] });
  const shape = path.includes('users') ? user : path.includes('products') ? product : path.includes('orders') ? order : signIn;
  return fc.tuple(shape, fc.constantFrom('as is', 'extra field', 'operator', 'prototype')).map(([body, twist]) => {
    const object = { ...(body as Record<string, unknown>) };
    if (twist === 'extra field') object.role = 'admin';
    if (twist === 'operator') object[Object.keys(object)[0] ?? 'name'] = { $gt: '' };
    if (twist === 'prototype') return JSON.parse(`{"__proto__":{"admin":true},${JSON.stringify(object).slice(1)}`.replace(',}', '}'));
    return object;
  });
}

function bodyOf(path: string, targets: Targets): fc.Arbitrary<Uint8Array | string | undefined> {
  return fc.oneof(
    { weight: 5, arbitrary: nearlyValid(path, targets).map((b) => JSON.stringify(b)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom('{"name": "A",', '{', '[1,2', '"unterminated', 'null', '', '   ') },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }) },
    { weight: 1, arbitrary: fc.constant(`{"name":"${'A'.repeat(70_000)}"}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

export function requestsFor(routes: Route[], targets: Targets): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...route.methods) },
          { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
        ),
        path: pathOf(route.path, targets),
        query,
        headers: headersOf(targets),
        body: bodyOf(route.path, targets),
      })
      .map(({ method, path, query: q, headers, body }) => ({
        route: route.path,
        method,
        path: `${path}${q}`,
        headers,
        ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
      })),
  );
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends one request; a stream (the event stream) is cut once its head has arrived. */
export async function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const controller = new AbortController();
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    signal: controller.signal,
    ...(request.body !== undefined ? { body: typeof request.body === 'string' ? request.body : Buffer.from(request.body) } : {}),
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    controller.abort();
    return { status: response.status, contentType, text: '' };
  }
  return { status: response.status, contentType, text: await response.text() };
}

const PLANNED_503 = new Set(['/problems/busy', '/problems/not-yet-consistent']);
const NAMES_ITS_FIELD = new Set([400, 413, 415, 422]);

/** What is wrong with an answer, if anything. */
export function violations(request: FuzzRequest, answer: Answer, targets: Targets): string[] {
  const found: string[] = [];
  const where = `${request.method} ${request.path.slice(0, 120)}`;
  let problem: { type?: unknown; status?: unknown; detail?: unknown; errors?: Array<{ field?: unknown; message?: unknown }> } | undefined;
  if (answer.status >= 400 && request.method !== 'HEAD') {
    if (!answer.contentType.includes('application/problem+json'))
      found.push(`${where}: ${answer.status} is not problem+json (${answer.contentType})`);
    try {
      problem = JSON.parse(answer.text);
    } catch {
      found.push(`${where}: ${answer.status} body is not JSON`);
    }
    if (problem && problem.status !== answer.status)
      found.push(`${where}: problem status ${String(problem.status)} differs from ${answer.status}`);
    if (problem && typeof problem.detail !== 'string') found.push(`${where}: problem without detail`);
    if (
      problem &&
      NAMES_ITS_FIELD.has(answer.status) &&
      !problem.errors?.every((e) => typeof e.field === 'string' && typeof e.message === 'string')
    ) {
      found.push(`${where}: ${answer.status} does not name the field`);
    }
  }
  // A HEAD answer has no body to name its type: its 503 is the planned one if it asked to wait.
  const planned =
    answer.status === 503 &&
    (PLANNED_503.has(String(problem?.type)) || (request.method === 'HEAD' && request.headers['wait-for-position'] !== undefined));
  if (answer.status >= 500 && !planned) found.push(`${where}: ${answer.status} ${answer.text.slice(0, 200)}`);
  for (const secret of targets.secrets) if (secret && answer.text.includes(secret)) found.push(`${where}: the answer holds a secret`);
  return found;
}
