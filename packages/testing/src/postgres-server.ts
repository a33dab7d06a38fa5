// A real PostgreSQL for the tests: Debian's binaries (apt-get install -y postgresql), a cluster
// made for the run in a directory of its own, reached on a Unix socket there (no port to race
// for), and removed when it stops. PostgreSQL will not run as root, so when the tests do (CI),
// the cluster is made and run as the `postgres` user that Debian's package creates.
//
// A test takes a database of its own from it (`database()`), so that test files and tests can
// share one server and still start empty.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { spawnInGroup } from './processes.ts';
import { START_BOUND_MS } from './wait.ts';

export interface TestPostgres {
  /** The server's own database (`postgres`): for making others, not for tests' data. */
  url: string;
  /** A new, empty database on the server; its URL. */
  database(): Promise<string>;
  /** Stops the server (SIGKILL to every process of it with `kill`: an outage as a crash gives it). */
  stop(options?: { kill?: boolean }): Promise<void>;
  /** Starts it again on the same data, after a stop. */
  restart(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
}

/** The newest PostgreSQL whose server binaries are installed (POSTGRES_BIN names a directory of one's own). */
function binaries(): string | undefined {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

const asRoot = () => process.getuid?.() === 0;
const POSTGRES_USER = 'postgres';

/** Why no PostgreSQL can be run here, or undefined when one can. */
export function postgresUnavailable(): string | undefined {
  const bin = binaries();
  if (!bin) return "PostgreSQL's server binaries are not installed (apt-get install -y postgresql), and POSTGRES_BIN names none";
  if (asRoot() && spawnSync('id', [POSTGRES_USER]).status !== 0)
    return `the tests run as root and there is no ${POSTGRES_USER} user to run PostgreSQL as (Debian's package makes it)`;
  return undefined;
}

/** A command as the user who owns the cluster: the `postgres` user when the tests run as root, else the tests' own. */
function asOwner(command: string, args: string[]): [string, string[]] {
  if (!asRoot()) return [command, args];
  return ['setpriv', ['--reuid', POSTGRES_USER, '--regid', POSTGRES_USER, '--init-groups', '--', command, ...args]];
}

export interface PostgresOptions {
  /**
   * fsync on: what a bench measures. Off (the default) for tests: a crash of the server's
   * processes loses nothing still in the kernel's cache, and the tests run faster on a busy disk.
   */
  durable?: boolean;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = binaries();
  if (!bin) throw new Error(postgresUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'eventide-postgres-'));
  if (asRoot()) {
    const id = spawnSync('id', ['-u', POSTGRES_USER], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', POSTGRES_USER], { encoding: 'utf8' });
    chownSync(dir, Number(id.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = join(dir, 'data');
  const user = 'eventide';
  const [initdb, initArgs] = asOwner(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    user,
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const made = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (made.status !== 0)
    throw new Error(`initdb failed (${made.status}) as ${asRoot() ? POSTGRES_USER : userInfo().username}: ${made.stderr}`);

  const serverArgs = [
    '-D',
    data,
    '-k',
    dir,
    '-c',
    'listen_addresses=',
    '-c',
    `fsync=${options.durable ? 'on' : 'off'}`,
    '-c',
    'shared_buffers=32MB',
    '-c',
    'max_connections=200',
  ];
  let child: ReturnType<typeof spawnInGroup> | undefined;
  let exited: Promise<unknown> = Promise.resolve();

  async function start(): Promise<void> {
    const [command, args] = asOwner(join(bin!, 'postgres'), serverArgs);
    const started = spawnInGroup(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    exited = new Promise((resolve) => started.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`PostgreSQL did not say it was ready within ${START_BOUND_MS} ms; it wrote: ${seen || '(nothing)'}`)),
        START_BOUND_MS,
      );
      started.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/database system is ready to accept connections/.test(seen)) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`PostgreSQL exited with ${code}: ${seen}`));
      });
    });
  }

  async function stop({ kill = false } = {}): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null) return;
    // SIGKILL to the whole group: the server's backends die with it, as in a crash of the machine's processes.
    if (kill && running.pid !== undefined) process.kill(-running.pid, 'SIGKILL');
    else running.kill('SIGINT'); // fast shutdown: sessions are ended, what was committed is kept
    await exited;
  }

  await start();
  const urlOf = (database: string) => `postgresql://${user}@localhost/${database}?host=${encodeURIComponent(dir)}`;
  const url = urlOf('postgres');
  return {
    url,
    async database() {
      const name = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return urlOf(name);
    },
    stop,
    restart: start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
