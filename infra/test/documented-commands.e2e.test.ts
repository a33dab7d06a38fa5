// The commands the README and docs/ show, run as written against `npm start`'s real process on a
// fresh data directory, on the embedded default and again on PostgreSQL (DATABASE_URL, for the
// process and every command alike): every code block marked "run as written by" this file. Only the address
// changes (the test's free port for localhost:3000); a block passes when it exits 0 and prints
// no problem document, and the service still answers after it. A block may be marked with what it
// must print. A block that runs until stopped (a subscriber) is marked with what it prints once
// ready and what it must print after a product is created; it is then stopped with SIGINT and must
// exit 0.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { startService, type RunningService } from './process.ts';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HAS_CURL = spawnSync('curl', ['--version']).status === 0;
if (!HAS_CURL) console.warn('SKIPPED: the documented shell commands: curl is not installed (apt-get install -y curl)');
const MARK = '<!-- run as written by infra/test/documented-commands.e2e.test.ts';

interface Block {
  file: string;
  language: 'sh' | 'ts';
  code: string;
  /** For a block that runs until stopped: `: once it prints "…", a product is created, and it must print "…"`. */
  untilStopped?: { ready: string; expect: string };
  /** `: it must print "…"`. */
  mustPrint?: string;
}

const UNTIL_STOPPED = /^: once it prints "([^"]+)", a product is created, and it must print "([^"]+)" -->/;
const MUST_PRINT = /^: it must print "([^"]+)" -->/;

function markedBlocks(): Block[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split(MARK)
      .slice(1)
      .map((rest) => {
        const until = UNTIL_STOPPED.exec(rest);
        const mustPrint = MUST_PRINT.exec(rest);
        if (!until && !mustPrint && !rest.startsWith(' -->'))
          throw new Error(`${file}: a mark this test does not understand: ${rest.slice(0, 80)}`);
        const after = rest.slice((until ?? mustPrint)?.[0].length ?? ' -->'.length);
        const match = /^\s*```(sh|ts)\n([\s\S]*?)```/.exec(after);
        if (!match) throw new Error(`${file}: the mark is not followed by a sh or ts code block`);
        return {
          file,
          language: match[1] as 'sh' | 'ts',
          code: match[2]!,
          ...(until ? { untilStopped: { ready: until[1]!, expect: until[2]! } } : {}),
          ...(mustPrint ? { mustPrint: mustPrint[1]! } : {}),
        };
      }),
  );
}

interface Run {
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ctrl-C in a terminal: SIGINT to the whole process group (bash, npm and node alike). */
  interrupt(): void;
}

function start(block: Block, env: Record<string, string>): Run {
  const [command, args] =
    block.language === 'sh'
      ? ['bash', ['-euo', 'pipefail', '-c', block.code]]
      : [process.execPath, ['--input-type=module-typescript', '-e', block.code]];
  const child = spawnInGroup(command, args as string[], {
    cwd: env.WORK_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    output: () => output,
    exited,
    interrupt() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
    },
  };
}

/** Runs a block that runs until stopped: waits for its ready line, creates a product, waits for the expected line, stops it. */
async function runUntilStopped(service: RunningService, run: Run, untilStopped: NonNullable<Block['untilStopped']>, n: number) {
  let ended = false;
  void run.exited.then(() => (ended = true));
  try {
    await until(() => ended || run.output().includes(untilStopped.ready), `it to print "${untilStopped.ready}"`, 60_000);
    expect(run.output(), 'it is ready').toContain(untilStopped.ready);
    // Nothing from the history before it started (the README's kettle is there).
    expect(run.output(), 'only events from now on').not.toContain(untilStopped.expect);
    // The admin the README's first block made.
    const ops = jsonClient(service.url);
    expect((await ops.request('POST', '/auth/sign-in', { email: 'ops@example.com', password: 'a long passphrase' })).status).toBe(200);
    const name = `Documented kettle ${n}`;
    const created = await ops.request('POST', '/products', { name, price: { amount: 100, currency: 'EUR' } });
    expect(created.status).toBe(201);
    const printed = () =>
      run
        .output()
        .split('\n')
        .some((line) => line.includes(untilStopped.expect) && line.includes(name));
    await until(() => ended || printed(), `it to print "${untilStopped.expect}" for ${name}`, 60_000);
    expect(printed(), `it printed the new event\n${run.output()}`).toBe(true);
  } finally {
    run.interrupt();
  }
  const { code, signal } = await run.exited;
  // A program that ends on Ctrl-C exits 0; one that lets the signal end it exits 130 or by the signal.
  expect(code === 0 || code === 130 || signal === 'SIGINT', `exit ${code} ${signal}\n${run.output()}`).toBe(true);
}

const noPostgres = postgresUnavailable();
if (noPostgres) console.warn(`SKIPPED: the documented commands on PostgreSQL: ${noPostgres}`);
let postgres: Promise<TestPostgres> | undefined;
afterAll(async () => (await postgres)?.remove());

/** Where the service and the commands keep their data: nothing more than the data directory, or a PostgreSQL database too. */
const ENGINES = [
  { name: 'the embedded default', env: async (): Promise<Record<string, string>> => ({}) },
  ...(noPostgres
    ? []
    : [
        {
          name: 'PostgreSQL',
          env: async (): Promise<Record<string, string>> => {
            postgres ??= startPostgres();
            return { DATABASE_URL: await (await postgres).database() };
          },
        },
      ]),
];

describe.each(ENGINES)('the documented commands, on $name', { timeout: 120_000 }, ({ env: engineEnv }) => {
  let service: RunningService;
  let dataDir: string;
  let workDir: string;
  let engine: Record<string, string>;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'eventide-docs-data-'));
    workDir = mkdtempSync(join(tmpdir(), 'eventide-docs-work-'));
    engine = await engineEnv();
    service = await startService({ DATA_DIR: dataDir, ...engine });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  const blocks = markedBlocks();
  it('are found', () => expect(blocks.length).toBeGreaterThanOrEqual(2));

  // In the order the docs give them: the README's first steps make the account the others use.
  for (const [i, block] of blocks.entries()) {
    const maybe = block.language === 'sh' && !HAS_CURL ? it.skip : it;
    maybe(`${block.file}, block ${i + 1} (${block.language}), runs as written`, async () => {
      const address = new URL(service.url).host;
      const code = block.code.replaceAll('localhost:3000', address);
      // sh blocks run where a user would run them: npm scripts from the repo, curl's files in a scratch directory.
      // PORT: npm start's port, which the example subscriber reads, as on a machine where both run.
      const env = { DATA_DIR: dataDir, ...engine, PORT: new URL(service.url).port, WORK_DIR: block.language === 'ts' ? ROOT : workDir };
      const run = start(
        {
          ...block,
          code:
            block.language === 'sh'
              ? `cd ${JSON.stringify(workDir)}; npm() { (cd ${JSON.stringify(ROOT)} && command npm "$@"); }\n${code}`
              : code,
        },
        env,
      );
      if (block.untilStopped) {
        await runUntilStopped(service, run, block.untilStopped, i);
      } else {
        const { code: exit } = await run.exited;
        expect(exit, run.output()).toBe(0);
        if (block.mustPrint) expect(run.output()).toContain(block.mustPrint);
      }
      expect(run.output(), 'no problem document in the output').not.toMatch(/"type":"\/problems\//);
      // What a block does must not end the service (a client's message once did).
      expect((await fetch(`${service.url}/health`)).status, 'the service answers after the block').toBe(200);
    });
  }
});
