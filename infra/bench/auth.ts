// Sign-in costs: a password sign-in against the scrypt hash it must compute (the floor), the
// same sign-in while another address keeps 40 sign-ins in flight (fair hashing: it should wait
// for at most one of theirs), and a read carrying a session (cookie check, store lookup)
// against the same read without one.
import { scrypt } from 'node:crypto';
import autocannon from 'autocannon';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startService } from '../test/process.ts';

export interface AuthResults {
  signInP50: number;
  /** The same sign-in, from another address, while one address keeps FLOOD sign-ins in flight. */
  signInUnderFloodP50: number;
  scryptP50: number;
  withSession: number;
  withoutSession: number;
}

const p50 = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

async function timed(times: number, run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return p50(samples);
}

async function readsPerSecond(url: string, seconds: number, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url: `${url}/products?page=1&limit=1`, connections: 32, duration: seconds, headers });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} reads failed`);
  return result.requests.average;
}

export const FLOOD = 40;

/** Keeps `FLOOD` wrong sign-ins from one address in flight until stopped. */
function flood(url: string): () => Promise<void> {
  let running = true;
  const attacker = async (i: number) => {
    while (running) {
      await jsonClient(url)
        .request(
          'POST',
          '/auth/sign-in',
          { email: `nobody-${i}@example.test`, password: 'a wrong password' },
          { 'X-Forwarded-For': '203.0.113.66' },
        )
        .catch(() => undefined);
    }
  };
  const all = Promise.all(Array.from({ length: FLOOD }, (_, i) => attacker(i)));
  return async () => {
    running = false;
    await all;
  };
}

export async function benchAuth(dataDir: string, seconds: number, samples = 20): Promise<AuthResults> {
  // One proxy hop trusted, so that the flood and the victim are two addresses; the flood's daily
  // failure limit raised, so that it keeps costing hashes (the worst case) instead of being blocked.
  const service = await startService({ DATA_DIR: dataDir, TRUST_PROXY_HOPS: '1', SIGNIN_FAILURES_PER_ADDRESS_PER_DAY: '1000000' });
  try {
    const browser = jsonClient(service.url);
    const me = await signUp(browser);
    const signIn = async () => {
      const reply = await jsonClient(service.url).request(
        'POST',
        '/auth/sign-in',
        { email: me.email, password: me.password },
        { 'X-Forwarded-For': '198.51.100.7' },
      );
      if (reply.status !== 200) throw new Error(`sign-in answered ${reply.status}`);
    };
    const signInP50 = await timed(samples, signIn);
    const stopFlood = flood(service.url);
    const signInUnderFloodP50 = await timed(samples, signIn);
    await stopFlood();
    const salt = Buffer.alloc(16, 7);
    const scryptP50 = await timed(
      samples,
      () =>
        new Promise((resolve, reject) =>
          scrypt(me.password, salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 2 ** 17 * 8 }, (error, key) =>
            error ? reject(error) : resolve(key),
          ),
        ),
    );
    const withoutSession = await readsPerSecond(service.url, seconds, {});
    const withSession = await readsPerSecond(service.url, seconds, { cookie: browser.cookieHeader() });
    return { signInP50, signInUnderFloodP50, scryptP50, withSession, withoutSession };
  } finally {
    await service.stop();
  }
}
