// Start-up as a user meets it: `npm start` typed in a shell (npm on the system's Node, its script's
// flags and environment, its threads as their defaults have them) on an empty data directory,
// timed from spawning npm to the first 200 of GET /health, and the server's resident memory once it
// has stood idle. In the same rounds, the same script's process without npm in front (as tests
// and process managers start it), for npm's own share; and once more on one HTTP thread, for what
// the request threads cost. (On an empty store the followers' thread waits for the first event,
// so it costs nothing idle.) Each start is a new process on a new directory.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, spawnInGroup } from '@eventide/testing/processes.ts';
import { ENTRY, freePort, residentMiB, spawnService } from '../test/process.ts';
import { p } from './percentile.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface StartupResults {
  starts: number;
  idleSeconds: number;
  /** Milliseconds from spawning `npm start` to the first 200, median and worst. */
  firstOk: { p50: number; max: number };
  /** The same from spawning the script's process itself, without npm: median. */
  firstOkWithoutNpmP50: number;
  /** Resident memory after `idleSeconds` idle, MiB: median and worst; and the same with HTTP_THREADS=1. */
  rssMiB: { p50: number; max: number };
  rssOneThreadMiB: number;
  /** How many threads answer HTTP by default here (the cores). */
  threads: number;
}

async function firstOk(url: string, exited: () => boolean, started: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (exited()) throw new Error('the process exited before it answered');
    if (performance.now() - started > 60_000) throw new Error('no 200 within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const idle = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * The environment of a user's shell: without what `npm run bench` added for its own script (the
 * repository's node_modules/.bin first on the PATH, where Node 24 is, and npm's variables), so
 * that `npm` runs on the system's Node, as it does for them.
 */
function userEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^npm_/i.test(name) && name !== 'NODE_COMPILE_CACHE') env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(dir))
    .join(delimiter);
  return env;
}

/** The server's pid, from its first log line that has one (npm's child is the shell that became node). */
function serverPid(log: string): number | undefined {
  const match = /"pid":(\d+)/.exec(log);
  return match ? Number(match[1]) : undefined;
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

/** `npm start` on a new directory: ms to the first 200, and the server's RSS after `idleSeconds`. */
async function startThroughNpm(dir: string, idleSeconds: number): Promise<{ ms: number; rss: number }> {
  const dataDir = mkdtempSync(join(dir, 'start-'));
  const port = await freePort();
  const started = performance.now();
  const npm = spawnInGroup('npm', ['start'], {
    cwd: ROOT,
    env: { ...userEnvironment(), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  npm.stdout!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(0, 65_536)));
  npm.stderr!.resume();
  try {
    const ms = await firstOk(`http://127.0.0.1:${port}`, () => npm.exitCode !== null, started);
    await idle(idleSeconds);
    const pid = serverPid(log);
    if (pid === undefined) throw new Error(`npm start logged no pid: ${log.slice(0, 500)}`);
    const rss = residentMiB(pid);
    // SIGTERM to npm alone, as a service manager sends it: npm passes it on (npm-signals.e2e.test.ts).
    npm.kill('SIGTERM');
    await exited(npm);
    return { ms, rss };
  } finally {
    killGroup(npm, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The start script's process without npm (spawnService runs the script as npm's shell would). */
async function startWithoutNpm(dir: string, env: Record<string, string>, idleSeconds: number): Promise<{ ms: number; rss: number }> {
  const dataDir = mkdtempSync(join(dir, 'start-'));
  try {
    const started = performance.now();
    const service = await spawnService({ DATA_DIR: dataDir, ...env }, ENTRY.all);
    try {
      const ms = await firstOk(service.url, () => service.exitCode() !== undefined, started);
      await idle(idleSeconds);
      return { ms, rss: residentMiB(service.child.pid!) };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchStartup(dir: string, starts: number, idleSeconds: number): Promise<StartupResults> {
  const throughNpm: Array<{ ms: number; rss: number }> = [];
  const withoutNpm: number[] = [];
  for (let i = 0; i < starts; i++) {
    throughNpm.push(await startThroughNpm(dir, idleSeconds));
    withoutNpm.push((await startWithoutNpm(dir, {}, 0)).ms);
  }
  const oneThread = await startWithoutNpm(dir, { HTTP_THREADS: '1' }, idleSeconds);
  const times = throughNpm.map((run) => run.ms);
  const rss = throughNpm.map((run) => run.rss);
  return {
    starts,
    idleSeconds,
    firstOk: { p50: p(times, 0.5), max: Math.max(...times) },
    firstOkWithoutNpmP50: p(withoutNpm, 0.5),
    rssMiB: { p50: p(rss, 0.5), max: Math.max(...rss) },
    rssOneThreadMiB: oneThread.rss,
    threads: availableParallelism(),
  };
}
