// POST /users without HTTP: the same sign-ups (a new address each, no password, someone not signed
// in) through the command service's write side, on the stores `npm start` opens in DATA_DIR, with
// CONNECTIONS of them in flight at once for SECONDS, after as long again to warm up. What a sign-up
// costs the write side (validation aside: the body is taken as valid) against what the whole
// request costs (http.ts): the difference is the request path, HTTP and Koa and what every route
// runs. Prints one JSON line: sign-ups a second, and this process's CPU a sign-up by kind of thread.
import { writeSide } from '@eventide/command-service/src/write-side.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openAuth } from '@eventide/platform/auth/open.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { ThreadTimes } from '../thread-times.ts';

const seconds = Number(process.env.SECONDS ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 32);
const config = loadConfig(process.env);
const eventStore = await openEventStore(config);
const auth = await openAuth(config);
const writes = writeSide({
  config,
  store: eventStore.store,
  keys: eventStore.keys,
  auth: { sessions: auth.sessions.store, limiters: auth.limiters },
});

const correlationId = newId();
const metadata = { correlationId, actor: { type: 'anonymous' as const } };
const caller = { key: 'ip:127.0.0.1', ip: '127.0.0.1', metadata };
let made = 0;
let running = true;
async function signingUp(): Promise<void> {
  while (running) {
    const n = made++;
    await writes.identity.signUp({
      profile: { name: 'Bench', email: `bench-${correlationId}-${n}@example.com` },
      password: undefined,
      by: undefined,
      caller,
      options: { metadata },
    });
  }
}
const loops = Array.from({ length: connections }, signingUp);
const forSeconds = () => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
await forSeconds();
const times = new ThreadTimes();
const measured = await times.measure(
  process.pid,
  async () => {
    const first = made;
    const started = performance.now();
    await forSeconds();
    return { signUps: made - first, elapsed: (performance.now() - started) / 1000 };
  },
  (result) => result.signUps,
);
running = false;
await Promise.all(loops);
await eventStore.store.close();
await auth.close();
console.log(JSON.stringify({ perSecond: Math.round(measured.signUps / measured.elapsed), cpu: times.perRequest() }));
