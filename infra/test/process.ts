// Runs the real entry point (`npm start`'s main.ts) as a child process, for tests that kill it.
// Ready means what it means to a user: GET /health answers 200.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, spawnInGroup } from '@eventide/testing/processes.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import { START_BOUND_MS, until } from '@eventide/testing/wait.ts';

const ROOT = new URL('../../', import.meta.url);
/** The entry points a test can start: the combined one, or a service alone. */
export const ENTRY = {
  all: fileURLToPath(new URL('infra/src/main.ts', ROOT)),
  projector: fileURLToPath(new URL('projector/src/main.ts', ROOT)),
  command: fileURLToPath(new URL('command-service/src/main.ts', ROOT)),
  query: fileURLToPath(new URL('query-service/src/main.ts', ROOT)),
  collab: fileURLToPath(new URL('collab-service/src/main.ts', ROOT)),
  site: fileURLToPath(new URL('infra/src/site.ts', ROOT)),
} as const;

const START_SCRIPTS: Record<string, string> = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).scripts;

/**
 * The package.json script that starts `entry`, and the directory npm would run it in, so that tests
 * and benchmarks start the process exactly as `npm start` does: its Node flags (the young-generation
 * cap that keeps memory bounded under abuse, see the README) and its environment (the compile cache).
 */
function startScript(entry: string): { command: string; cwd: string } {
  for (const command of Object.values(START_SCRIPTS)) {
    // `exec`: the shell npm runs a script in becomes node, so that npm's signals reach the server (npm-signals.e2e.test.ts).
    if (!command.includes('exec node ')) continue;
    const file = command.slice(command.lastIndexOf(' ') + 1);
    // By the end of its path, so that the same entry of a copy of the repository (a drill's) is found too.
    if (entry.endsWith(`/${file}`)) return { command, cwd: entry.slice(0, -file.length) };
  }
  throw new Error(`no start script in package.json runs ${entry}`);
}

/** Runs a command-line entry point of the repository (an npm script's file) as an operator would: its exit code and what it printed. */
export async function runCli(file: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawnInGroup(process.execPath, [fileURLToPath(new URL(file, ROOT)), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/** Runs `npm run admin -- <action> <who>` against a data directory. */
export function runAdmin(env: Record<string, string>, action: string, who?: string): Promise<{ code: number | null; output: string }> {
  return runCli('command-service/src/admin-cli.ts', [action, ...(who === undefined ? [] : [who])], env);
}

/** Runs `npm run admin -- grant <email>` (or revoke); throws if it fails. */
export async function grantAdmin(env: Record<string, string>, email: string, action: 'grant' | 'revoke' = 'grant'): Promise<void> {
  const { code, output } = await runAdmin(env, action, email);
  if (code !== 0) throw new Error(`admin ${action} failed (${code}): ${output}`);
}

export interface RunningService {
  url: string;
  child: ChildProcess;
  /** Ends the process the hard way: no shutdown hooks, no flush. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** The end of what it wrote (its log's tail), for a message about why a wait failed. */
  output(): string;
}

/** A process's resident set in MiB, as the kernel counts it (VmRSS: its heap, its threads' heaps, the pages of node it touched). */
export function residentMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** Where a process's resident memory is, for a message: anonymous (heaps), file-backed and shared pages, in MiB. */
export function residentParts(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const part = (name: string) =>
    `${name} ${(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024).toFixed(0)}`;
  return ['RssAnon', 'RssFile', 'RssShmem'].map(part).join(', ');
}

/**
 * Where the ports handed to started processes come from: below the kernel's ephemeral range
 * (ip_local_port_range), from which bind(0) and every outgoing connection take theirs. A port from
 * there, closed again for the child to listen on, may be taken meanwhile by any connection the
 * machine opens, or handed out again by the next bind(0): a service given it as both PORT and
 * METRICS_PORT could not start (CI, 2026-12-02). Each vitest worker takes from a slice of its own.
 */
const PORTS = (() => {
  let ephemeralLow = 32_768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // Not Linux: its default range's start.
  }
  const low = 10_000;
  const sliceSize = 1_000;
  const slices = Math.max(1, Math.floor((ephemeralLow - low) / sliceSize));
  const slice = Number(process.env.VITEST_POOL_ID ?? 0) % slices;
  const first = low + slice * sliceSize;
  // A random start: a process this one starts (the bench) may take from the same slice.
  let next = Math.floor(Math.random() * sliceSize);
  return { take: () => first + (next++ % sliceSize), sliceSize };
})();

/** A port for a process a test starts: one this process has not handed out lately, and free when asked. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORTS.sliceSize; tried++) {
    const port = PORTS.take();
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port among the ${PORTS.sliceSize} of this worker's slice`);
}

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).status === 200;
  } catch {
    return false;
  }
}

export async function startService(
  env: Record<string, string>,
  entry: string = ENTRY.all,
  timeoutMs = START_BOUND_MS,
): Promise<RunningService> {
  const service = await spawnService(env, entry);
  const name = entry.slice(fileURLToPath(ROOT).length);
  try {
    await until(
      async () => {
        if (service.exitCode() !== undefined)
          throw new Error(`${name} exited with ${service.exitCode()} before it was healthy; it wrote:\n${lastLines(service.output())}`);
        return healthy(service.url);
      },
      () => `${name} to answer GET ${service.url}/health with 200; it wrote:\n${lastLines(service.output())}`,
      timeoutMs,
    );
  } catch (error) {
    await service.kill();
    throw error;
  }
  return service;
}

/** The end of what a process wrote, for a message about why it is not ready. */
export function lastLines(text: string, count = 20): string {
  const lines = text.trimEnd().split('\n');
  return lines.length === 1 && lines[0] === '' ? '(nothing)' : lines.slice(-count).join('\n');
}

/** How much of the end of a process's log (stdout) is kept for the messages about it. */
const LOG_TAIL_CHARS = 16_384;

/** Starts the process and returns at once, before it is ready: for tests that kill it early. */
export async function spawnService(
  env: Record<string, string>,
  entry: string = ENTRY.all,
): Promise<RunningService & { exitCode(): number | null | undefined }> {
  // A PORT of the caller's: a process started again where its predecessor listened.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { command, cwd } = startScript(entry);
  // The script run by the shell, as npm runs it, with this process's node first on the PATH, as npm puts the repository's.
  const child = spawnInGroup('sh', ['-c', command], {
    cwd,
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...TEST_ENV,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  // The log goes to stdout: its end is kept (a fatal line says why a process exited), not all of it.
  let logTail = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    logTail = (logTail + chunk.toString()).slice(-LOG_TAIL_CHARS);
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  return {
    url,
    child,
    exitCode: () => exitCode,
    output: () => stderr.join('') + logTail,
    async kill() {
      killGroup(child, 'SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
