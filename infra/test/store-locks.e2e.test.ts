// Issue 59, part 6: the stores keep their locks. A running server holds a POSIX lock on each of
// its SQLite files, on every thread's connection; another process (the sqlite3 CLI, `npm run
// admin`) that opens and closes a file meanwhile must find the server still there, so that it
// neither deletes the WAL nor checkpoints it away from under the server. Every write the server
// acknowledged before and after is still there after a SIGKILL and a restart.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import type { SignedIn } from '@eventide/testing/sign-in.ts';
import { until } from '@eventide/testing/wait.ts';
import { grantAdmin, startService, type RunningService } from './process.ts';

/** Every SQLite file `npm start` keeps open while it runs. */
const STORES = ['events.db', 'keys.db', 'read.db', 'sessions.db', 'collab.db'];
const SQLITE3 = spawnSync('sqlite3', ['-version']).status === 0;
if (!SQLITE3) console.warn('SKIPPED: the sqlite3 CLI as the other process: it is not installed (apt-get install -y sqlite3)');

let dir: string;
let env: Record<string, string>;
let server: RunningService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-locks-'));
  env = { DATA_DIR: dir, LOG_LEVEL: 'warn' };
  server = await startService(env);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The POSIX locks process `pid` holds on `file` now (/proc/locks names files by device and inode). */
function locksOn(pid: number, file: string): string[] {
  const inode = statSync(file).ino;
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((line) => line.includes(' POSIX ') && line.split(/\s+/)[4] === String(pid) && line.split(/\s+/)[5]?.endsWith(`:${inode}`));
}

const unlocked = (pid: number) => STORES.filter((store) => locksOn(pid, join(dir, store)).length === 0);

/** A sign-up the server acknowledged, read back once the followers' thread has projected it. */
let signUps = 0;
async function acknowledgedSignUp(url: string): Promise<SignedIn> {
  const n = ++signUps;
  const user = { email: `locks-${n}-${process.pid}@example.test`, password: `a long passphrase ${n}` };
  const reply = await jsonClient(url).request('POST', '/users', { name: `Locks ${n}`, ...user });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const read = await fetch(`${url}/products?limit=1`, { headers: { 'Wait-For-Position': reply.headers.get('Event-Position')! } });
  expect(read.status).toBe(200);
  return { userId: reply.body.userId, ...user };
}

async function signsIn(url: string, user: SignedIn): Promise<number> {
  return (await jsonClient(url).request('POST', '/auth/sign-in', { email: user.email, password: user.password })).status;
}

describe('the stores of a running server', () => {
  it('are each locked by the server once every thread has opened them', async () => {
    await acknowledgedSignUp(server.url);
    const pid = server.child.pid!;
    // The followers' thread opens events.db, keys.db and read.db again: its opening must not drop the main thread's locks.
    await until(() => unlocked(pid).length === 0, `a POSIX lock of process ${pid} on each of ${STORES.join(', ')}`).catch(() => {
      throw new Error(`process ${pid} holds no lock on ${unlocked(pid).join(', ')}`);
    });
  });

  it.skipIf(!SQLITE3)(
    'keep their WAL and every acknowledged write when the sqlite3 CLI and npm run admin open and close them',
    async () => {
      const before = await acknowledgedSignUp(server.url);
      const pid = server.child.pid!;
      for (const store of STORES) {
        const file = join(dir, store);
        // Opens, reads and closes the file as an operator having a look would.
        execFileSync('sqlite3', [file, 'SELECT count(*) FROM sqlite_master;'], { encoding: 'utf8' });
        expect(existsSync(`${file}-wal`), `${store}-wal after the sqlite3 CLI closed ${store}`).toBe(true);
      }
      // Opens events.db, keys.db and sessions.db, writes to them, and closes them.
      await grantAdmin(env, before.email);
      expect(unlocked(pid), 'stores the server no longer holds a lock on').toEqual([]);
      for (const store of STORES) expect(existsSync(join(dir, `${store}-wal`)), `${store}-wal`).toBe(true);
      const after = await acknowledgedSignUp(server.url);

      await server.kill();
      server = await startService(env);
      expect(await signsIn(server.url, before)).toBe(200);
      expect(await signsIn(server.url, after)).toBe(200);
      // The grant the admin command acknowledged: the role is on the session of a new sign-in.
      const again = jsonClient(server.url);
      await again.request('POST', '/auth/sign-in', { email: before.email, password: before.password });
      expect((await again.request('GET', '/auth/session')).body).toMatchObject({ roles: ['admin'] });
    },
    120_000,
  );
});
