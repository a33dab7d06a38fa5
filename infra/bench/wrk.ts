// wrk, the load generator written in C that the bench loads its servers with: on a two-core machine
// the generator shares the cores with the server it loads, and autocannon (in the bench's own Node
// process) took a good part of a core that a server running more than one thread needed (GET
// /api/products on two threads ÷ on one: 1.4 with autocannon, 1.65 with wrk, the same minutes;
// POST /users: see http.ts). The sign-in section alone still loads with autocannon (auth.ts).
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

/** Why the bench cannot load servers here, if it cannot: every section that loads one uses wrk. */
export const wrkMissing = (): string | undefined =>
  spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error ? 'wrk is not installed (Debian package wrk)' : undefined;

/** GET `paths` of `url` in turn (one path needs no script), 16 connections, for `seconds`; every answer must be a 2xx. */
export async function loadPaths(url: string, paths: string[], seconds: number, headers: Record<string, string> = {}, cpus?: string) {
  const result =
    paths.length === 1
      ? await wrk(url + paths[0], seconds, 16, { headers, cpus })
      : await wrk(url, seconds, 16, { script: { file: 'paths.lua', args: paths }, headers, cpus });
  if (result.non2xx > 0) throw new Error(`${url}${paths[0]}: ${result.non2xx} answers were not 2xx`);
  return { requestsPerSecond: result.requestsPerSecond, p99: result.p99, requests: result.requests };
}

export interface WrkResult {
  /** How many requests were answered in all. */
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** Milliseconds from wrk's `12.13ms`, `850.00us` or `1.02s`. */
function millisOf(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!match) throw new Error(`wrk printed a latency of ${text}`);
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's'];
}

export interface WrkOptions {
  /** A Lua file beside this one that makes each request (sign-ups.lua, paths.lua), and its arguments. */
  script?: { file: string; args: string[] };
  headers?: Record<string, string>;
  /** The cores wrk may run on (taskset's list, `1` or `0-3`): kept off a server pinned elsewhere. */
  cpus?: string | undefined;
}

/**
 * `url` loaded by wrk's one thread on `connections` connections for `seconds`. Throws on socket
 * errors: a figure taken while connections failed means nothing. Asynchronous, so that servers in
 * this process (the traced load's collector) answer meanwhile.
 */
export async function wrk(
  url: string,
  seconds: number,
  connections: number,
  { script, headers = {}, cpus }: WrkOptions = {},
): Promise<WrkResult> {
  const scripted = script ? ['-s', fileURLToPath(new URL(script.file, import.meta.url))] : [];
  const headed = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...headed,
    ...scripted,
    url,
    ...(script ? ['--', ...script.args] : []),
  ];
  const [command, commandArgs] = cpus === undefined ? ['wrk', args] : ['taskset', ['-c', cpus, 'wrk', ...args]];
  const out = await promisify(execFile)(command, commandArgs, { encoding: 'utf8' }).then(
    (run) => run.stdout,
    (error: Error & { stderr?: string }) => {
      throw new Error(`wrk ${url}: ${error.stderr || error.message}`);
    },
  );
  const errors = /Socket errors: (.*)/.exec(out);
  if (errors) throw new Error(`wrk ${url}: ${errors[0]}`);
  const requests = /(\d+) requests in /.exec(out)?.[1];
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
  if (!requests || !rate || !p50 || !p99) throw new Error(`wrk ${url} printed no rate or latencies:\n${out}`);
  return {
    requests: Number(requests),
    requestsPerSecond: Number(rate),
    p50: millisOf(p50),
    p99: millisOf(p99),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}
