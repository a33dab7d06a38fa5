// Two collab processes on one data directory and one Redis (REDIS_URL): an editor connected to
// one sees the ops and the cursor of an editor connected to the other, live, and a rate limit is
// one budget across both, so that a client cannot multiply it by spreading its requests, as the
// bound on a document's named versions is one bound across both. When
// Redis goes away, each process goes on serving its own editors and says it is not ready.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAMED_VERSIONS } from '@eventide/contract/resources/documents/versions.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { redisUnavailable, startRedis, type TestRedis } from '@eventide/testing/redis-server.ts';
import { until } from '@eventide/testing/wait.ts';
import { call, connectEditor, converged, openText, submit, textOf, type Doc } from '@eventide/testing/collab/editor-client.ts';
import { ENTRY, startService, type RunningService } from './process.ts';

const unavailable = redisUnavailable();
if (unavailable) {
  console.warn(`SKIPPED: collab and rate limits across processes over Redis: ${unavailable}`);
  describe('several collab processes over Redis', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-scale-out-'));
  let redis: TestRedis;
  let command: RunningService;
  let first: RunningService;
  let second: RunningService;
  let cookie: string;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { DATA_DIR: dir, REDIS_URL: redis.url, COLLAB_SHARE_LOOKUPS_PER_HOUR: '3' };
    // The command process first: it makes the secrets in the data directory that the others read.
    command = await startService(env, ENTRY.command);
    [first, second] = await Promise.all([startService(env, ENTRY.collab), startService(env, ENTRY.collab)]);
    const owner = jsonClient(command.url);
    const signedUp = await owner.request('POST', '/users', {
      name: 'Spread',
      email: 'spread@example.com',
      password: 'a long passphrase 3',
    });
    expect(signedUp.status).toBe(201);
    cookie = owner.cookieHeader();
  });
  afterAll(async () => {
    await Promise.all([command, first, second].map((s) => s?.stop()));
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows an edit and a cursor made on one collab process to an editor on the other', async () => {
    const here = await connectEditor(first.url, cookie);
    const there = await connectEditor(second.url, cookie);
    try {
      const mine = await openText(here.doc('spread'));
      const theirs = await openText(there.doc('spread'));
      await submit(mine, [{ insert: 'typed on the first process' }]);
      await until(() => textOf(theirs) === 'typed on the first process', 'the edit at the editor on the second process');
      await submit(theirs, [{ retain: 5 }, { insert: ' and answered' }]);
      await converged([mine, theirs] as Doc[], async () => theirs.version!);
      expect(textOf(mine)).toBe('typed and answered on the first process');

      const watching = here.connection.getDocPresence('documents', 'spread');
      await call((done) => watching.subscribe(done));
      const pointing = there.connection.getDocPresence('documents', 'spread');
      await call((done) => pointing.subscribe(done));
      await call((done) => pointing.create('cursor-there').submit({ index: 6, length: 3 }, done));
      const seen = () => watching.remotePresences['cursor-there'] as { index: number; length: number } | undefined;
      await until(() => seen()?.index === 6, 'the cursor from the second process at the first');
      expect(seen()).toMatchObject({ index: 6, length: 3 });
    } finally {
      here.close();
      there.close();
    }
  });

  it('counts a limit once across processes: lookups spread over both are refused at the limit', async () => {
    const editor = await connectEditor(first.url, cookie);
    try {
      await openText(editor.doc('lookups'));
    } finally {
      editor.close();
    }
    const lookUp = (service: RunningService) => {
      const client = jsonClient(service.url);
      client.setCookies(cookie);
      return client.request('POST', '/collab/documents/lookups/editors', { email: 'nobody@example.com' });
    };
    // Three allowed per hour: two here, one there, and the fourth is refused on either.
    for (const service of [first, first, second]) expect((await lookUp(service)).status).not.toBe(429);
    const refused = await lookUp(second);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBeTruthy();
    expect((await lookUp(first)).status).toBe(429);
  });

  it('keeps at most so many names a document when they are asked of both processes at once', async () => {
    const editor = await connectEditor(first.url, cookie);
    try {
      const doc = await openText(editor.doc('names'));
      for (let n = 0; n < MAX_NAMED_VERSIONS + 5; n++) await submit(doc, [{ insert: `${n} ` }]);
    } finally {
      editor.close();
    }
    const name = (service: RunningService, version: number) => {
      const client = jsonClient(service.url);
      client.setCookies(cookie);
      return client.request('POST', '/collab/documents/names/versions', { name: `v${version}`, version });
    };
    for (let version = 1; version <= MAX_NAMED_VERSIONS - 3; version++) expect((await name(first, version)).status).toBe(201);
    // Three left, eight asked for at once, half of them of each process: each sees only its own.
    const asked = await Promise.all(Array.from({ length: 8 }, (_, n) => name(n % 2 ? second : first, MAX_NAMED_VERSIONS - 2 + n)));
    expect(asked.map((reply) => reply.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const timeline = await jsonClient(second.url).request('GET', '/collab/documents/names/versions', undefined, { cookie });
    expect(timeline.body.named).toHaveLength(MAX_NAMED_VERSIONS);
  });

  it('goes on saving the edits of open documents without Redis, and says it is not ready', async () => {
    const ready = async (service: RunningService) => (await fetch(`${service.url}/health/ready`)).status;
    expect(await ready(first)).toBe(200);
    const editor = await connectEditor(first.url, cookie);
    try {
      const doc = await openText(editor.doc('outage'));
      await redis.stop({ kill: true });
      await submit(doc, [{ insert: 'saved while Redis is down' }]);
      expect(textOf(doc)).toBe('saved while Redis is down');
      // A document opened now cannot be followed live: a clear error, and nothing about where Redis lives.
      const refused = await openText(editor.doc('opened-during-the-outage')).then(
        () => undefined,
        (error: { code?: string; message?: string }) => error,
      );
      expect(refused).toMatchObject({ code: 'ERR_UNAVAILABLE', message: expect.stringContaining('try again') });
      expect(refused?.message).not.toContain(redis.url.replace('unix://', ''));
    } finally {
      editor.close();
    }
    await until(async () => (await ready(first)) === 503, 'the first process to say it is not ready');
    const body = (await (await fetch(`${first.url}/health/ready`)).json()) as { checks: Record<string, { status: string }> };
    expect(body.checks.collabPubSub?.status).toBe('fail');
    expect(body.checks.rateLimitStore?.status).toBe('fail');
    expect(body.checks.collabStore?.status).toBe('pass');
    // The edit was saved: the other process reads it (a fetch, which needs no pub/sub).
    const later = await connectEditor(second.url, cookie);
    try {
      const doc = later.doc('outage');
      await call((done) => doc.fetch(done));
      expect(textOf(doc)).toBe('saved while Redis is down');
    } finally {
      later.close();
    }
  });
}
