// `npm run load`: a steady mix of traffic against the process `npm start` runs, for minutes, to
// find what only time shows: errors under sustained load, writes acknowledged and then lost, memory
// that grows. Requests are sent on a fixed schedule whether or not earlier ones have answered (an
// open model), so a slow answer does not slow the load down and hide itself; each latency runs
// from when the request was due. docs/operations.md#load-and-soak says what the mix is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { connectEditor, openText, submit, type EditorClient } from '@eventide/testing/collab/editor-client.ts';
import { signUp, signInWithPassword, type SignedIn } from '@eventide/testing/sign-in.ts';
import { grantAdmin, residentMiB, startService, type RunningService } from '../test/process.ts';
import { seedData } from '../src/seed/data.ts';
import { p } from '../bench/percentile.ts';

export interface LoadOptions {
  seconds: number;
  /** HTTP requests per second, all routes together. */
  rate: number;
  editors: number;
  /** Operations each editor submits per second. */
  opsPerEditor: number;
  /** How often the server's resident memory is sampled. */
  sampleEveryMs: number;
}

export const DEFAULT_LOAD: LoadOptions = { seconds: 300, rate: 200, editors: 20, opsPerEditor: 2, sampleEveryMs: 5_000 };

/** The mix: each kind's share of the HTTP requests (70% reads, 20% writes, 10% searches). */
const MIX = [
  { kind: 'read', share: 0.7 },
  { kind: 'write', share: 0.2 },
  { kind: 'search', share: 0.1 },
] as const;

/** The kind of request a uniform draw in [0, 1) falls on, by the shares of MIX. */
function kindAt(draw: number): (typeof MIX)[number]['kind'] {
  let below = 0;
  for (const { kind, share } of MIX) {
    below += share;
    if (draw < below) return kind;
  }
  return 'read';
}

export interface RouteStats {
  route: string;
  count: number;
  p50: number;
  p99: number;
  /** Answers outside 2xx and 3xx, by status. */
  errors: Record<string, number>;
}

export interface LoadReport {
  options: LoadOptions;
  routes: RouteStats[];
  serverErrors: number;
  editorOps: { submitted: number; acknowledged: number; failed: number };
  writes: { acknowledged: number; verified: number; lost: string[] };
  rss: Array<{ second: number; mib: number }>;
  /** Resident memory growth after warm-up, fitted by least squares, in MiB per minute. */
  rssSlopeMibPerMinute: number;
  /** Whether the fitted growth over the window after warm-up stays under 5% of the mean RSS. */
  rssFlat: boolean;
}

/** Least-squares slope of y over x. */
function slope(points: Array<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

interface Actors {
  users: Array<{ who: SignedIn; http: JsonClient }>;
  admin: JsonClient;
}

async function actors(url: string, env: Record<string, string>, count: number): Promise<Actors> {
  const users = [];
  for (let i = 0; i < count; i++) {
    const http = jsonClient(url);
    users.push({ who: await signUp(http, { name: `Load ${i}` }), http });
  }
  const admin = jsonClient(url);
  const who = await signUp(admin, { name: 'Load admin' });
  await grantAdmin(env, who.email);
  await signInWithPassword(admin, who.email, who.password);
  return { users, admin };
}

export async function runLoad(options: LoadOptions = DEFAULT_LOAD, log: (line: string) => void = console.log): Promise<LoadReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'eventide-load-'));
  const env = { DATA_DIR: dataDir };
  // The limits a crowd from one address would hit are raised: this measures the service, not its limits.
  const service: RunningService = await startService({
    ...env,
    RATE_LIMIT_SEARCH_PER_SECOND: '1000000',
    RATE_LIMIT_PROFILE_PER_SECOND: '1000000',
    RATE_LIMIT_READ_MS_PER_SECOND: '0',
    COLLAB_MAX_CONNECTIONS_PER_USER: '64',
  });
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, Record<string, number>>();
  /**
   * Products the run made. Reads pick only those the read models already hold (created at or before
   * the newest Read-Position seen): a read of one not projected yet would be a 404 by design
   * (eventual consistency), not an error of the service.
   */
  const created = { products: [] as string[], projected: [] as string[], pending: [] as Array<{ id: string; position: number }> };
  let readPosition = 0;
  const noteReadPosition = (header: string | null | undefined) => {
    const position = Number(header);
    if (!(position > readPosition)) return;
    readPosition = position;
    const still = created.pending.filter((p) => p.position > position);
    for (const p of created.pending) if (p.position <= position) created.projected.push(p.id);
    created.pending = still;
  };
  /** Each acknowledged write: where to read it back, the position to wait for, and the revision it made. */
  const acknowledged: Array<{ path: string; position: string; revision: number; http: JsonClient }> = [];
  let serverErrors = 0;
  try {
    const data = seedData(42);
    const { users, admin } = await actors(service.url, env, Math.max(2, Math.ceil(options.editors / 2)));
    let seeded = '0';
    for (let i = 0; i < 20; i++) {
      const reply = await admin.request('POST', '/products', data.product());
      created.products.push(reply.body.productId);
      seeded = reply.headers.get('Event-Position') ?? seeded;
    }
    // The first reads pick among these, so the read models hold them before the clock starts.
    await admin.request('GET', `/products/${created.products.at(-1)}`, undefined, { 'Wait-For-Position': seeded });
    created.projected.push(...created.products);
    const record = (route: string, started: number, status: number) => {
      const list = latencies.get(route) ?? [];
      list.push(performance.now() - started);
      latencies.set(route, list);
      if (status >= 400 || status === 0) {
        const counts = errors.get(route) ?? {};
        counts[String(status)] = (counts[String(status)] ?? 0) + 1;
        errors.set(route, counts);
      }
      if (status >= 500 || status === 0) serverErrors++;
    };
    const pick = <T>(items: T[]) => items[Math.floor(data.random() * items.length)]!;
    const words = ['kettle', 'chair', 'the', 'elec', 'granit', 'qqxzv', 'steel lamp', 'wooden'];

    /** One request of a kind, chosen at random within it; resolves when answered. */
    async function one(kind: (typeof MIX)[number]['kind'], due: number): Promise<void> {
      const user = pick(users);
      let route: string;
      let call: () => Promise<{ status: number; body?: { productId?: string; orderId?: string }; headers?: Headers }>;
      if (kind === 'read') {
        const r = data.random();
        if (r < 0.4) [route, call] = ['GET /api/products', () => user.http.request('GET', '/api/products?limit=20')];
        else if (r < 0.7) [route, call] = ['GET /products/:id', () => user.http.request('GET', `/products/${pick(created.projected)}`)];
        else if (r < 0.85)
          [route, call] = ['GET /products?page', () => user.http.request('GET', `/products?page=${1 + Math.floor(data.random() * 5)}`)];
        else [route, call] = ['GET /users/:id', () => user.http.request('GET', `/users/${user.who.userId}`)];
      } else if (kind === 'write') {
        const r = data.random();
        if (r < 0.4) {
          [route, call] = [
            'POST /orders',
            () =>
              user.http.request('POST', '/orders', {
                userId: user.who.userId,
                lines: [{ productId: pick(created.products), quantity: 1 }],
              }),
          ];
        } else if (r < 0.7) [route, call] = ['POST /products', () => admin.request('POST', '/products', data.product())];
        else
          [route, call] = [
            'PATCH /products/:id',
            () => admin.request('PATCH', `/products/${pick(created.products)}`, data.productChange()),
          ];
      } else {
        [route, call] = ['GET /search', () => user.http.request('GET', `/search?q=${encodeURIComponent(pick(words))}`)];
      }
      try {
        const reply = await call();
        record(route, due, reply.status);
        noteReadPosition(reply.headers?.get('Read-Position'));
        if (reply.status === 201 || (reply.status === 200 && kind === 'write')) {
          const position = reply.headers?.get('Event-Position');
          if (reply.body?.productId && route === 'POST /products') {
            created.products.push(reply.body.productId);
            created.pending.push({ id: reply.body.productId, position: Number(position) });
          }
          const id = reply.body?.productId ?? reply.body?.orderId;
          const path = route.includes('orders') ? `/orders/${id}` : `/products/${id}`;
          const revision = Number(JSON.parse(reply.headers?.get('ETag') ?? 'NaN'));
          if (position && id) acknowledged.push({ path, position, revision, http: route.includes('orders') ? user.http : admin });
        }
      } catch {
        record(route, due, 0);
      }
    }

    // Editors: two connections per user on that user's own document, typing on a timer.
    const editors: EditorClient[] = [];
    const editorOps = { submitted: 0, acknowledged: 0, failed: 0 };
    const docs = [];
    for (let i = 0; i < options.editors; i++) {
      const user = users[i % users.length]!;
      const client = await connectEditor(service.url, user.http.cookieHeader());
      editors.push(client);
      docs.push(await openText(client.doc(`load-${user.who.userId}`)));
    }

    const started = performance.now();
    const end = started + options.seconds * 1000;
    const rss: LoadReport['rss'] = [];
    const sample = () => rss.push({ second: Math.round((performance.now() - started) / 1000), mib: residentMiB(service.child.pid!) });
    sample();
    const sampler = setInterval(sample, options.sampleEveryMs);
    const inFlight = new Set<Promise<void>>();
    const track = (work: Promise<void>) => {
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    };
    // The schedule: request n is due at started + n / rate, whatever happened to the ones before.
    let sent = 0;
    let typed = 0;
    let nextLog = started + 30_000;
    const opsRate = options.editors * options.opsPerEditor;
    while (performance.now() < end) {
      const now = performance.now();
      while (sent < ((now - started) / 1000) * options.rate) {
        const due = started + (sent / options.rate) * 1000;
        track(one(kindAt(data.random()), due));
        sent++;
      }
      while (typed < ((now - started) / 1000) * opsRate) {
        const doc = docs[typed % docs.length]!;
        editorOps.submitted++;
        track(
          submit(doc, [{ insert: 'x' }]).then(
            () => void editorOps.acknowledged++,
            () => void editorOps.failed++,
          ),
        );
        typed++;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (now >= nextLog) {
        nextLog += 30_000;
        log(`${Math.round((now - started) / 1000)} s: ${sent} requests, ${typed} editor ops, RSS ${rss.at(-1)!.mib.toFixed(0)} MiB`);
      }
    }
    await Promise.all(inFlight);
    clearInterval(sampler);
    sample();
    for (const editor of editors) editor.close();

    // Nothing acknowledged is lost: every created or changed entity is read back once the read
    // models have reached the write's position, at the revision the write made or a later one.
    const lost: string[] = [];
    for (const write of acknowledged) {
      const reply = await write.http.request('GET', write.path, undefined, { 'Wait-For-Position': write.position });
      const revision = Number(JSON.parse(reply.headers.get('ETag') ?? 'NaN'));
      if (reply.status !== 200 || !(revision >= write.revision))
        lost.push(`${write.path} (${reply.status}, revision ${revision} < ${write.revision})`);
    }

    const warm = rss.filter((s) => s.second >= Math.min(60, options.seconds / 5));
    const perMinute = slope(warm.map((s) => ({ x: s.second / 60, y: s.mib })));
    const meanRss = warm.reduce((s, p) => s + p.mib, 0) / Math.max(1, warm.length);
    const windowMinutes = warm.length > 1 ? (warm.at(-1)!.second - warm[0]!.second) / 60 : 0;
    return {
      options,
      // A route is listed once it has a latency, so no list is empty.
      routes: [...latencies].map(([route, list]) => ({
        route,
        count: list.length,
        p50: p(list, 0.5),
        p99: p(list, 0.99),
        errors: errors.get(route) ?? {},
      })),
      serverErrors,
      editorOps,
      writes: { acknowledged: acknowledged.length, verified: acknowledged.length - lost.length, lost },
      rss,
      rssSlopeMibPerMinute: perMinute,
      // Only growth counts: memory the process gives back (a heap that shrinks after a collection) is no leak.
      rssFlat: perMinute * windowMinutes < 0.05 * meanRss,
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
