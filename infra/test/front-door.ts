// A split deployment on this machine, as docs/operations.md describes it: the command, query,
// projector, collab and site processes on one data directory, and in front of them the front door
// (nginx from Debian) with the configuration written from the route table (infra/front-door/nginx.ts).
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { START_BOUND_MS, until } from '@eventide/testing/wait.ts';
import { NGINX, nginxWithStream, writeOneMachineConfig } from '../front-door/write-config.ts';
import { PROCESSES, type ProcessName } from '../front-door/topology.ts';
import { ENTRY, freePort, lastLines, startService, type RunningService } from './process.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const found = nginxWithStream();
export const nginxAvailable = found.available;
export const NGINX_MISSING = `SKIPPED: the front door's tests need nginx at ${NGINX} with its stream module (apt-get install -y nginx libnginx-mod-stream)`;

export interface FrontDoor {
  url: string;
  /** Its own files: the configuration, the pid, logs and nginx's temporary files. */
  directory: string;
  /** What nginx wrote to its error log. */
  errors(): string;
  /** nginx's processes: its master and its workers. */
  processIds(): number[];
  stop(): Promise<void>;
}

/**
 * Runs nginx in the foreground with the configuration `npm run front-door -- --one-machine` writes
 * for these upstreams, and as it says to run it; all its files in a temporary directory. `env`:
 * the processes' settings, which the door's timeouts follow, as the command reads them.
 */
export async function startFrontDoor(
  upstreams: Record<ProcessName, readonly string[]>,
  env: Record<string, string> = {},
  workers = 1,
): Promise<FrontDoor> {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-door-'));
  // nginx's workers (nobody, when the tests run as root) reach the HTTP server's socket in here.
  chmodSync(dir, 0o711);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const written = writeOneMachineConfig(
    [
      '--one-machine',
      ...['--dir', dir, '--listen', `127.0.0.1:${port}`, '--workers', String(workers)],
      ...PROCESSES.flatMap((name) => [`--${name}`, upstreams[name].join(',')]),
    ],
    env,
  );
  const args = written.nginxArgs;
  const child: ChildProcess = spawnInGroup(NGINX, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errors = () => {
    try {
      return stderr + readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return stderr;
    }
  };
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${errors()}`);
      return fetch(`${url}/health/live`).then(
        (response) => response.ok,
        () => false,
      );
    },
    () => `the front door to answer GET ${url}/health/live; nginx wrote:\n${lastLines(errors())}`,
    START_BOUND_MS,
  );
  return {
    url,
    directory: dir,
    errors,
    processIds() {
      const master = child.pid!;
      const workers = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim();
      return [master, ...(workers ? workers.split(' ').map(Number) : [])];
    },
    async stop() {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface SplitSite {
  url: string;
  dataDir: string;
  /** Every data directory a process was started on: one, unless each has its own. */
  dataDirs: string[];
  /** What every process is started with. */
  env: Record<string, string>;
  door: FrontDoor;
  command: RunningService;
  projector: RunningService;
  query: RunningService;
  site: RunningService;
  /** As many as asked for, each behind the door. */
  collab: RunningService[];
  /** Starts the collab process `index` again where it listened, after it ended. */
  restartCollab(index: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The processes on one data directory, each trusting the door's one hop, and the door in front.
 * `ownDataDirs`: each process on a data directory of its own instead, as processes on several
 * hosts are (with DATABASE_URL, they share the database and no file).
 */
export async function startSplitSite(
  options: {
    env?: Record<string, string>;
    collabProcesses?: number;
    ownDataDirs?: boolean;
    /** Runs on the stores before any process starts (a seed), given their environment. */
    prepare?: ((env: Record<string, string>) => Promise<void>) | undefined;
  } = {},
): Promise<SplitSite> {
  const dataDir = mkdtempSync(join(tmpdir(), 'eventide-split-'));
  const env = { DATA_DIR: dataDir, TRUST_PROXY_HOPS: '1', ...options.env };
  await options.prepare?.(env);
  const dataDirs = [dataDir];
  /** The environment of the next process started: its own data directory, if asked. */
  const envOfOne = () => {
    if (!options.ownDataDirs) return env;
    const own = mkdtempSync(join(tmpdir(), 'eventide-split-'));
    dataDirs.push(own);
    return { ...env, DATA_DIR: own };
  };
  // The command process first: on one data directory, it makes the shared secrets there that the others then read.
  const command = await startService(envOfOne(), ENTRY.command);
  const [projector, query, site, ...collab] = await Promise.all([
    startService(envOfOne(), ENTRY.projector),
    startService(envOfOne(), ENTRY.query),
    startService(envOfOne(), ENTRY.site),
    ...Array.from({ length: options.collabProcesses ?? 1 }, () => startService(envOfOne(), ENTRY.collab)),
  ]);
  const host = (service: RunningService) => new URL(service.url).host;
  const upstreams: Record<ProcessName, string[]> = {
    command: [host(command)],
    query: [host(query)],
    site: [host(site!)],
    collab: collab.map(host),
  };
  const door = await startFrontDoor(upstreams);
  const split: SplitSite = {
    url: door.url,
    dataDir,
    dataDirs,
    env,
    door,
    command,
    projector: projector!,
    query: query!,
    site: site!,
    collab,
    async restartCollab(index) {
      const port = new URL(collab[index]!.url).port;
      collab[index] = await startService({ ...env, PORT: port }, ENTRY.collab);
    },
    async stop() {
      await door.stop();
      await Promise.all([command, projector, query, site, ...collab].map((process) => process?.stop()));
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
  return split;
}
