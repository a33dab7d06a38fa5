// Issue 44, case 5: each anonymous GET /auth/{provider} stored the sign-in's state on the server
// for 10 minutes, with no limit: 20,000 starts with a 2,048-character returnTo grew sessions.db by
// 88 MB. The state now travels sealed in the browser's cookie; starting a sign-in writes nothing.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProvider, type TestProvider } from '../oidc-provider.ts';
import { startTarget, type HostileTarget } from './service.ts';

const STARTS = Number(process.env.HOSTILE_OAUTH_STARTS ?? 2000);

let provider: TestProvider;
let target: HostileTarget;
beforeAll(async () => {
  provider = await startTestProvider();
  target = await startTarget({ AUTH_PROVIDERS: provider.config('acme') });
  provider.serve(`${target.url}/auth/callback`);
});
afterAll(async () => {
  await target?.close();
  await provider?.close();
});

/** The session store's files on disk, its WAL included. */
const sessionBytes = () =>
  ['sessions.db', 'sessions.db-wal'].reduce((sum, file) => {
    try {
      return sum + statSync(join(target.dataDir, file)).size;
    } catch {
      return sum;
    }
  }, 0);

describe('anonymous sign-in starts', { timeout: 180_000 }, () => {
  it(`store nothing on the server, however many: ${STARTS} with a 2,048-character returnTo`, async () => {
    const returnTo = `/${'r'.repeat(2047)}`;
    const first = await fetch(`${target.url}/auth/acme?returnTo=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.getSetCookie().some((cookie) => cookie.startsWith('eventide.oauth='))).toBe(true);
    const before = sessionBytes();
    for (let i = 0; i < STARTS; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, j) => {
          const reply = await fetch(`${target.url}/auth/acme?returnTo=${encodeURIComponent(returnTo)}`, {
            redirect: 'manual',
            headers: { 'X-Forwarded-For': `10.9.${(i + j) >> 8}.${(i + j) & 255}` },
          });
          expect(reply.status).toBe(303);
        }),
      );
    }
    const grown = sessionBytes() - before;
    console.log(`oauth starts: ${STARTS} anonymous starts grew the session store by ${grown} bytes`);
    expect(grown).toBe(0);
  });

  it('gives back the memory the abuse took, within a minute', () => target.memoryReturns(), 90_000);
});
