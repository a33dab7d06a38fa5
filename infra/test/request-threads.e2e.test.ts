// `npm start` answering on two threads that share its port (HTTP_THREADS=2): every request is
// sent on a connection of its own, so that the kernel spreads them over both, and the process
// must answer as one. Reads are answered by either thread, writes by the one that writes; a
// session, a limit's budget, a client's address, a read waiting for its write, a live stream and
// the editor's WebSocket all mean the same whichever thread took the connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from '@eventide/testing/collab/raw-client.ts';
import { sampleOf } from '@eventide/testing/prometheus-text.ts';
import { until } from '@eventide/testing/wait.ts';
import { freePort, startService, type RunningService } from './process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-request-threads-'));
const SEARCH_BUDGET = 1_000;
let service: RunningService;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  service = await startService({
    METRICS_PORT: String(metricsPort),
    DATA_DIR: dataDir,
    HTTP_THREADS: '2',
    LOG_LEVEL: 'info',
    // A front door's one hop: the client is the address X-Forwarded-For names.
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_SIGN_UPS_PER_HOUR: '2',
    RATE_LIMIT_SEARCH_PER_SECOND: String(SEARCH_BUDGET),
  });
  // The writing thread answers first; the request thread joins it once started.
  await until(
    async () => (await (await fetch(`http://127.0.0.1:${metricsPort}/health`)).json()).listening === 1,
    'the request thread to listen',
  );
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a connection of its own (no keep-alive): whichever thread the kernel gives it to. */
function fresh(method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${service.url}${path}`, {
      method,
      agent: false,
      headers: {
        ...headers,
        ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.end(payload);
  });
}

const cookieOf = (answer: Answer) => ((answer.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]).join('; ');

/** How many of the service's access-log lines for `path` each thread wrote (0: the writing thread). */
function answeredBy(path: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of service.output().split('\n')) {
    if (!line.includes('"msg":"request"') || !line.includes(`"path":"${path}"`)) continue;
    const thread = Number(/"thread":(\d+)/.exec(line)?.[1] ?? 0);
    counts.set(thread, (counts.get(thread) ?? 0) + 1);
  }
  return counts;
}

/** Waits for the access log (written in batches) to show requests for `path` answered by each thread. */
const bothThreadsAnswered = (path: string) =>
  until(
    () => answeredBy(path).size === 2,
    () => `the access log to show ${path} answered on both threads; by thread: ${JSON.stringify([...answeredBy(path)])}`,
  );

describe('npm start on two threads', () => {
  it('answers reads on both threads, and writes and their reads whichever thread takes them', async () => {
    const people = [];
    for (let i = 0; i < 2; i++) {
      const forwardedFor = `198.51.100.${i + 1}`;
      const signedUp = await fresh(
        'POST',
        '/users',
        { 'x-forwarded-for': forwardedFor },
        {
          name: `Person ${i}`,
          email: `person-${i}@example.test`,
          password: 'a long passphrase here',
        },
      );
      expect(signedUp.status).toBe(201);
      people.push({
        cookie: cookieOf(signedUp),
        location: String(signedUp.headers.location),
        position: String(signedUp.headers['event-position']),
      });
    }
    // Each reads itself at once, waiting for its write, on connections that land on either thread.
    for (let i = 0; i < 12; i++) {
      const person = people[i % 2]!;
      const read = await fresh('GET', person.location, { cookie: person.cookie, 'wait-for-position': person.position });
      expect(read.status, read.body).toBe(200);
      // Another's profile is not theirs to read, on either thread (404: it does not say whether it exists).
      const other = people[(i + 1) % 2]!;
      expect((await fresh('GET', other.location, { cookie: person.cookie, 'wait-for-position': other.position })).status).toBe(404);
    }
    await bothThreadsAnswered(people[0]!.location);
  });

  it("counts a limit spent on the writing thread by the client's address, as the request thread saw it", async () => {
    // RATE_LIMIT_SIGN_UPS_PER_HOUR=2 per address: three tries from each of two addresses, on fresh connections.
    const statuses: Record<string, number[]> = { '203.0.113.10': [], '203.0.113.11': [] };
    for (const address of Object.keys(statuses)) {
      for (let i = 0; i < 3; i++) {
        const answer = await fresh(
          'POST',
          '/users',
          { 'x-forwarded-for': address },
          {
            name: 'Someone',
            email: `someone-${address}-${i}@example.test`,
            password: 'a long passphrase here',
          },
        );
        statuses[address]!.push(answer.status);
      }
    }
    expect(statuses).toEqual({ '203.0.113.10': [201, 201, 429], '203.0.113.11': [201, 201, 429] });
  });

  it('spends one budget for a limit counted on the request threads, whichever thread answers', async () => {
    // Each answer says what is left of the client's budget in the window: with one counter for the
    // process it goes down by one at each request (or starts again when a new window begins); two
    // counters, one per thread, would each start from the top.
    const remaining: number[] = [];
    for (let i = 0; i < 24; i++) {
      const answer = await fresh('GET', '/search?q=kettle', { 'x-forwarded-for': '192.0.2.77' });
      expect(answer.status).toBe(200);
      remaining.push(Number(answer.headers['ratelimit-remaining']));
    }
    for (let i = 1; i < remaining.length; i++) {
      const stepped = remaining[i] === remaining[i - 1]! - 1 || remaining[i] === SEARCH_BUDGET - 1;
      expect(stepped, `RateLimit-Remaining, in order: ${remaining.join(', ')}`).toBe(true);
    }
    await bothThreadsAnswered('/search');
    // The metrics port counts every one of them, whichever thread answered.
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(sampleOf(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/search', status: '200' })).toBe(24);
  });

  it('streams live changes and opens the editor whichever thread takes the connection', async () => {
    const signedUp = await fresh(
      'POST',
      '/users',
      { 'x-forwarded-for': '198.51.100.99' },
      {
        name: 'Editor',
        email: 'editor@example.test',
        password: 'a long passphrase here',
      },
    );
    const cookie = cookieOf(signedUp);
    for (let i = 0; i < 6; i++) {
      const client = await rawClient(service.url, cookie);
      expect(client.id).not.toBe('');
      client.socket.close();
    }
    const controller = new AbortController();
    try {
      const streams = await Promise.all(
        Array.from({ length: 4 }, () => fetch(`${service.url}/changes?of=products`, { headers: { cookie }, signal: controller.signal })),
      );
      for (const stream of streams) {
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toContain('text/event-stream');
        const reader = stream.body!.getReader();
        const first = new TextDecoder().decode((await reader.read()).value);
        expect(first).toContain('event: ready');
      }
    } finally {
      controller.abort();
    }
  });
});
