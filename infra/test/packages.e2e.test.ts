// The SDK and the typed client as a downstream project gets them: `npm run pack` builds both
// tarballs, a fresh project outside the repository installs them (offline: their npm
// dependencies are linked from this repository's node_modules, at the versions the workspace
// uses), compiles its own TypeScript against their declarations, and runs a subscriber and a
// client against `npm start`'s real process, on this machine's Node 24 and on its system Node
// (20 here), the oldest line the packages promise.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { grantAdmin, startService, type RunningService } from './process.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOWNSTREAM = fileURLToPath(new URL('downstream/', import.meta.url));
const OPS = { email: 'ops@example.com', password: 'a long passphrase' };

/** A Node of an older line than ours on this machine's PATH (the system's 20), to run the packages on. */
function olderNode(): { path: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const path = join(dir, 'node');
    if (!dir || dir.startsWith(ROOT) || !existsSync(path)) continue;
    const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const version = run.stdout?.trim().replace(/^v/, '');
    if (run.status === 0 && version && Number(version.split('.')[0]) < Number(process.versions.node.split('.')[0]))
      return { path, version };
  }
  return undefined;
}
const OLDER = olderNode();
if (!OLDER) console.warn(`SKIPPED: the packages on an older Node: only Node ${process.versions.node} is on this machine's PATH`);
const RUNTIMES = [{ path: process.execPath, version: process.versions.node }, ...(OLDER ? [OLDER] : [])];

interface PackedManifest {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const packedManifest = (tarball: string) =>
  JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as PackedManifest;

/** A program of the downstream project, running; `stop()` sends SIGTERM and waits for its exit. */
function run(node: string, file: string, args: string[], env: Record<string, string>) {
  const child = spawnInGroup(node, [file, ...args], { cwd: project, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

let packs: string;
let project: string;
let dataDir: string;
let service: RunningService;
let tarballs: string[];
let compiled: { status: number | null; output: string };

beforeAll(async () => {
  packs = mkdtempSync(join(tmpdir(), 'eventide-packs-'));
  project = mkdtempSync(join(tmpdir(), 'eventide-downstream-'));
  dataDir = mkdtempSync(join(tmpdir(), 'eventide-packages-data-'));
  // As the README says: npm run pack -- sdk client
  tarballs = execFileSync(process.execPath, [join(ROOT, 'infra/packaging/pack.ts'), 'sdk', 'client', '--out', packs], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .filter((line) => line.endsWith('.tgz'));
  const manifests = tarballs.map(packedManifest);
  // Every npm package the tarballs ask for, from this repository's node_modules (the machine is offline).
  const needed = new Set([
    '@types/node',
    ...manifests.flatMap((m) => [...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]),
  ]);
  const dependencies: Record<string, string> = Object.fromEntries(
    [...needed].sort().map((name) => [name, `file:${realpathSync(join(ROOT, 'node_modules', name))}`]),
  );
  for (const [i, manifest] of manifests.entries()) dependencies[manifest.name] = `file:${tarballs[i]}`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'downstream', private: true, type: 'module', dependencies }, null, 2),
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, stdio: 'pipe' });
  for (const file of ['subscriber.ts', 'client.ts', 'tsconfig.json']) cpSync(join(DOWNSTREAM, file), join(project, file));
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
  compiled = { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };

  service = await startService({ DATA_DIR: dataDir });
  const anyone = jsonClient(service.url);
  expect((await anyone.request('POST', '/users', { name: 'Ops', ...OPS })).status).toBe(201);
  await grantAdmin({ DATA_DIR: dataDir }, OPS.email);
}, 300_000);

afterAll(async () => {
  await service?.stop();
  for (const dir of [packs, project, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed SDK and client', { timeout: 120_000 }, () => {
  it('are compiled JavaScript with declarations, and depend on nothing of this repository', () => {
    expect(tarballs.map((t) => t.split('/').at(-1))).toEqual([
      expect.stringMatching(/^eventide-sdk-\d+\.\d+\.\d+\.tgz$/),
      expect.stringMatching(/^eventide-client-\d+\.\d+\.\d+\.tgz$/),
    ]);
    for (const name of ['sdk', 'client']) {
      const installed = join(project, 'node_modules/@eventide', name);
      // Extracted from the tarball into the project, not linked to the workspace.
      expect(realpathSync(installed).startsWith(realpathSync(project))).toBe(true);
      const files = readdirSync(installed, { recursive: true, encoding: 'utf8' });
      expect(files).toContain('README.md');
      expect(files.some((f) => f.endsWith('.mjs')) && files.some((f) => f.endsWith('.d.mts'))).toBe(true);
      expect(files.filter((f) => /(?<!\.d\.m)\.ts$/.test(f))).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackedManifest;
      expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(Object.keys(manifest.exports)).toContain('.');
      expect(JSON.stringify(manifest)).not.toContain('@eventide/kernel');
      for (const file of files.filter((f) => /\.(mjs|d\.mts)$/.test(f))) {
        expect(readFileSync(join(installed, file), 'utf8'), `${name}/${file}`).not.toMatch(
          /@eventide\/(kernel|stores|contract|platform|runtime|testing)/,
        );
      }
    }
  });

  it("compile a downstream project's TypeScript against their declarations", () => {
    expect(compiled, compiled.output).toMatchObject({ status: 0 });
  });

  it('have declarations that catch a mistake: an event field that does not exist', () => {
    writeFileSync(
      join(project, 'mistake.ts'),
      "import { createSubscriber } from '@eventide/sdk';\ncreateSubscriber({ http: { url: 'x' } }).on('user:created', (e) => console.log(e.data.nope));\n",
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'], {
      encoding: 'utf8',
    });
    rmSync(join(project, 'mistake.ts'));
    expect(tsc.status).not.toBe(0);
    expect(tsc.stdout).toMatch(/mistake\.ts.*Property 'nope' does not exist/);
  });

  for (const node of RUNTIMES) {
    it(`install the dead-letters command, which runs on Node ${node.version} and says how it is used`, () => {
      const bin = join(project, 'node_modules/.bin/eventide-dead-letters');
      const answer = spawnSync(node.path, [bin, 'list'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect([answer.status, answer.stderr]).toEqual([
        2,
        expect.stringMatching(
          /--group \(a Kafka consumer group\) or --file \(a subscriber’s dead-letter file\) is needed[\s\S]*usage: eventide-dead-letters/,
        ),
      ]);
    });

    it(`run a subscriber and a client against npm start on Node ${node.version}`, async () => {
      const env = { EVENTIDE_URL: service.url, EVENTIDE_EMAIL: OPS.email, EVENTIDE_PASSWORD: OPS.password };
      const subscriber = run(node.path, 'out/subscriber.js', [], env);
      try {
        await until(
          () => subscriber.output().includes('ready on Node') || subscriber.output().includes('Error'),
          'the subscriber to start',
        );
        expect(subscriber.output()).toContain(`ready on Node ${node.version}`);

        const name = `Packaged kettle${node.version.split('.')[0]}`;
        const client = run(node.path, 'out/client.js', [name], env);
        expect(await client.exited, client.output()).toBe(0);
        const answer = JSON.parse(client.output().trim().split('\n').at(-1)!);
        expect(answer).toMatchObject({
          node: node.version,
          read: name,
          refusal: { status: 400, field: expect.stringContaining('at least 3') },
        });
        expect(answer.found).toContain(answer.id);

        await until(
          () => subscriber.output().includes(`product:created ${answer.id} ${name} 1250 EUR`),
          'the subscriber to print the product',
        );
      } finally {
        expect(await subscriber.stop(), subscriber.output()).toBe(0);
      }
      expect(subscriber.output()).toMatch(
        /subscriber_deliveries_total\{group="downstream",outcome="handled",event="product:created"\} 1\n/,
      );
    });
  }
});
