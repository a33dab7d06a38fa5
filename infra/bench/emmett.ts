// Our embedded event store against Emmett's SQLite event store (@event-driven-io/emmett-sqlite,
// the TypeScript peer users would pick) on the same appends, both at synchronous=FULL (Emmett's
// SQLite default): one event at a time to new streams, one at a time to one stream with its
// expected version, and 32 appenders at once. The peer lives outside the workspaces in
// peers/emmett (its sqlite3 builds a native module) and is installed on first use.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { newId } from '@eventide/kernel/ids.ts';

const PEER = fileURLToPath(new URL('./peers/emmett/', import.meta.url));
const CONCURRENT_APPENDERS = 32;

/** Events per second of the first run that finished (none if none did), and why the runs before it failed. */
export interface PeerRate {
  rate?: number;
  failures: string[];
}

export interface EmmettResults {
  appends: number;
  rows: Array<{ name: string; ours: number; peer: PeerRate }>;
}

/**
 * Installs the peer from its lockfile. sqlite3 first tries to download a prebuilt binary from
 * GitHub and, offline, compiles its bundled SQLite instead (about 2 minutes on two cores).
 */
const installed = () => existsSync(join(PEER, 'node_modules/@event-driven-io/emmett-sqlite'));

function installPeer(): string | undefined {
  if (installed()) return undefined;
  console.log('Emmett peer: installing infra/bench/peers/emmett (sqlite3 compiles from source when offline)...');
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEER, encoding: 'utf8', timeout: 15 * 60_000 });
  if (npm.status === 0) return undefined;
  return `npm ci in infra/bench/peers/emmett failed: ${(npm.stderr || npm.error?.message || '').trim().split('\n').slice(-3).join(' ')}`;
}

const metadata = { correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' as const } };
const payload = { userId: 'bench', name: 'Bench User', email: 'bench@example.com' };
const event = (): NewEvent => ({ id: newId(), type: 'user:created', data: payload, metadata });

async function ours(path: string, appends: number) {
  const store = openSqliteEventStore({ path, synchronous: 'FULL' });
  const rate = async (run: () => Promise<number>) => {
    const started = performance.now();
    const events = await run();
    return events / ((performance.now() - started) / 1000);
  };
  await store.append(`user-${newId()}`, [event()], { expectedRevision: 'no_stream' });
  const newStreams = await rate(async () => {
    for (let i = 0; i < appends; i++) await store.append(`user-${newId()}`, [event()], { expectedRevision: 'no_stream' });
    return appends;
  });
  const oneStream = await rate(async () => {
    const stream = `user-${newId()}`;
    await store.append(stream, [event()], { expectedRevision: 'no_stream' });
    for (let revision = 0; revision < appends; revision++) await store.append(stream, [event()], { expectedRevision: revision });
    return appends + 1;
  });
  const concurrent = await rate(async () => {
    const each = Math.ceil(appends / CONCURRENT_APPENDERS);
    await Promise.all(
      Array.from({ length: CONCURRENT_APPENDERS }, async () => {
        for (let i = 0; i < each; i++) await store.append(`user-${newId()}`, [event()], { expectedRevision: 'no_stream' });
      }),
    );
    return each * CONCURRENT_APPENDERS;
  });
  await store.close();
  return { newStreams, oneStream, concurrent };
}

function peer(path: string, appends: number): { newStreams: PeerRate; oneStream: PeerRate; concurrent: PeerRate } {
  const output = execFileSync(process.execPath, [join(PEER, 'appends.ts'), path, String(appends)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  // Emmett logs each failed transaction's error to stdout, so the result line is marked.
  const result = output.split('\n').find((line) => line.startsWith('RESULT '));
  if (!result) throw new Error(`the Emmett peer printed no result: ${output.slice(-500)}`);
  return JSON.parse(result.slice('RESULT '.length));
}

/** `install`: whether to install the peer when it is not there (a quick run does not: it compiles SQLite offline). */
export async function benchEmmett(dir: string, scale: number, install = true): Promise<EmmettResults | { skipped: string }> {
  if (!install && !installed()) return { skipped: 'a quick run does not install the peer (`npm run bench` does)' };
  const failed = installPeer();
  if (failed) return { skipped: failed };
  const appends = Math.round(1500 * scale);
  const a = await ours(join(dir, 'emmett-ours.db'), appends);
  const b = peer(join(dir, 'emmett-peer.db'), appends);
  return {
    appends,
    rows: [
      { name: 'one event at a time to new streams', ours: a.newStreams, peer: b.newStreams },
      { name: 'one event at a time to one stream, with its expected version', ours: a.oneStream, peer: b.oneStream },
      { name: `${CONCURRENT_APPENDERS} appenders at once, each to new streams`, ours: a.concurrent, peer: b.concurrent },
    ],
  };
}
