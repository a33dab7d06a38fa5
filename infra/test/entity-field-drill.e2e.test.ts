// The drill of issue 62: a new nullable detail of products, added in a copy of the repository as a
// contributor would add it. It takes the product's declaration, the events' version step (an
// upcaster per event, the examples, `npm run events:publish`) and the web form, and no other file;
// the declaration alone fails the compatibility gate, naming the detail. Then the copy typechecks
// whole (the typed client and the web form read the new detail), and its server takes the detail,
// keeps it in the read model, shows it in the history and in an as-of read, and describes it in
// OpenAPI and AsyncAPI.
import { createHash } from 'node:crypto';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnInGroup } from '@eventide/testing/processes.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { grantAdmin, lastLines, startService, type RunningService } from './process.ts';
import { openApiConformance } from './openapi-conformance.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DETAIL = 'weightGrams';

/** The repository's files as git sees them (tracked, and new ones not ignored), copied; its packages linked as npm ci links them. */
function copyRepository(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    const from = join(ROOT, file);
    // Deleted but not yet staged: not part of the working tree.
    if (!lstatSync(from, { throwIfNoEntry: false })) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(from, join(to, file), { verbatimSymlinks: true });
  }
  // node_modules: every package links to this repository's; the workspace's own (@eventide/*) are
  // relative links, which in the copy reach the copy's packages.
  mkdirSync(join(to, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === '@eventide') {
      mkdirSync(join(to, 'node_modules', entry));
      for (const workspace of readdirSync(join(ROOT, 'node_modules', entry)))
        symlinkSync(readlinkSync(join(ROOT, 'node_modules', entry, workspace)), join(to, 'node_modules', entry, workspace));
    } else symlinkSync(join(ROOT, 'node_modules', entry), join(to, 'node_modules', entry));
  }
}

/** Every file's digest, by path, to tell afterwards which ones the drill changed. */
function digests(root: string, under = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(join(root, under), { withFileTypes: true })) {
    const path = join(under, entry.name);
    if (path === 'node_modules' || path === '.git') continue;
    if (entry.isDirectory()) for (const [file, digest] of digests(root, path)) found.set(file, digest);
    else if (entry.isFile())
      found.set(
        path,
        createHash('sha256')
          .update(readFileSync(join(root, path)))
          .digest('hex'),
      );
  }
  return found;
}

/** Replaces `anchor` in the file with what `change` makes of it; the anchor must be there once. */
function edit(root: string, file: string, anchor: string, change: (anchor: string) => string): void {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  if (text.split(anchor).length !== 2) throw new Error(`${file} does not hold ${JSON.stringify(anchor)} once: the drill needs updating`);
  writeFileSync(path, text.replace(anchor, change(anchor)));
}

/** Runs node with `args` in the copy; its exit code and output. */
async function run(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawnInGroup(process.execPath, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/** The compatibility gate's problems in the copy, as `npm test`'s gate would report them. */
async function gateProblems(copy: string): Promise<string[]> {
  const script = `import { compatibilityProblems, currentCatalogue, readPublished } from './packages/kernel/src/events/compatibility.ts';
console.log(JSON.stringify(compatibilityProblems(currentCatalogue(), readPublished())));`;
  const { code, output } = await run(copy, ['--input-type=module', '-e', script]);
  if (code !== 0) throw new Error(`the gate did not run in the copy (${code}):\n${lastLines(output)}`);
  return JSON.parse(output.trim().split('\n').at(-1)!) as string[];
}

describe('a nullable detail added to products in a copy of the repository', { timeout: 600_000 }, () => {
  let copy: string;
  let before: Map<string, string>;
  let gateOnDeclaration: string[];
  let touched: string[];
  let service: RunningService | undefined;
  let dataDir: string;
  let admin: JsonClient;

  beforeAll(async () => {
    copy = mkdtempSync(join(tmpdir(), 'eventide-drill-'));
    copyRepository(copy);
    before = digests(copy);

    // 1. The declaration: one line.
    edit(
      copy,
      'packages/kernel/src/entities/product.ts',
      '  category: optionalDetail(',
      (anchor) =>
        `  ${DETAIL}: optionalDetail(z.number().int().min(0).nullable(), z.number().int().min(0).max(1_000_000).nullable(), null),\n${anchor}`,
    );
    gateOnDeclaration = await gateProblems(copy);

    // 2. The events' version step: an upcaster for each event that carries details, the examples, and publishing.
    edit(
      copy,
      'packages/kernel/src/events/versions.ts',
      '    (data) => ({ ...data, images: [] }),\n',
      (anchor) =>
        `${anchor}    // The next version: a product may state its weight; those listed before did not.\n    (data) => ({ ...data, ${DETAIL}: null }),\n`,
    );
    edit(copy, 'packages/kernel/src/events/versions.ts', "    (data) => data,\n  ],\n  'product:deleted'", (anchor) =>
      anchor.replace(
        '    (data) => data,\n',
        '    (data) => data,\n    // The next version: a change may set the weight.\n    (data) => data,\n',
      ),
    );
    edit(copy, 'packages/kernel/src/events/examples.ts', "    category: 'Kitchen',\n    images:", (anchor) =>
      anchor.replace("    category: 'Kitchen',\n", `    category: 'Kitchen',\n    ${DETAIL}: 1200,\n`),
    );
    edit(copy, 'packages/kernel/src/events/examples.ts', "      category: 'Kitchen',\n      images:", (anchor) =>
      anchor.replace("      category: 'Kitchen',\n", `      category: 'Kitchen',\n      ${DETAIL}: 1150,\n`),
    );
    const published = await run(copy, ['packages/kernel/src/events/publish-cli.ts']);
    if (published.code !== 0) throw new Error(`events:publish failed in the copy:\n${lastLines(published.output)}`);

    // 3. The web form: its first value, what it sends, and a field.
    edit(
      copy,
      'web/src/app/pages/admin.tsx',
      "    category: existing?.category ?? '',",
      (anchor) => `${anchor}\n    ${DETAIL}: existing?.${DETAIL} == null ? '' : String(existing.${DETAIL}),`,
    );
    edit(
      copy,
      'web/src/app/pages/admin.tsx',
      '      category: values.category || null,',
      (anchor) => `${anchor}\n      ${DETAIL}: values.${DETAIL}.trim() === '' ? null : Number(values.${DETAIL}),`,
    );
    edit(
      copy,
      'web/src/app/pages/admin.tsx',
      '      <Field label="Category"',
      (anchor) => `      <Field label="Weight in grams (empty: not stated)" {...saving.field('${DETAIL}')} />\n${anchor}`,
    );

    const after = digests(copy);
    touched = [...new Set([...before.keys(), ...after.keys()])].filter((file) => before.get(file) !== after.get(file)).sort();

    // The typed client carries it: a reader of the client's Product (not part of the change).
    writeFileSync(
      join(copy, 'packages/client/src/drill-reader.ts'),
      `import type { Product } from './api-client.ts';\nexport const weightOf = (product: Product): number | null => product.${DETAIL};\n`,
    );
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    if (copy) rmSync(copy, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the declaration, the version step and the web form: no other file', () => {
    expect(touched).toEqual([
      'packages/kernel/src/entities/product.ts',
      'packages/kernel/src/events/examples.ts',
      'packages/kernel/src/events/published.json',
      'packages/kernel/src/events/versions.ts',
      'web/src/app/pages/admin.tsx',
    ]);
  });

  it('fails the compatibility gate with the declaration alone, naming the detail', () => {
    expect(gateOnDeclaration.length).toBeGreaterThan(0);
    expect(gateOnDeclaration.join('\n')).toContain(DETAIL);
  });

  it('passes the gate and typechecks whole once the version step and the form are done', async () => {
    expect(await gateProblems(copy)).toEqual([]);
    const typecheck = await run(copy, [join(copy, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
    expect(typecheck.code, lastLines(typecheck.output, 40)).toBe(0);
  });

  it('serves the detail: taken, read back, in the history, as of a moment, and described in OpenAPI and AsyncAPI', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'eventide-drill-data-'));
    // From the copy's sources, as a developer's first start after the change runs: no bundle built for a throwaway copy.
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', START_BUNDLE: 'off' };
    service = await startService(env, join(copy, 'infra/src/main.ts'));
    // The copy's answers are checked against the copy's own OpenAPI document, not this one's (setup/openapi-conformance.ts).
    const conformance = openApiConformance((await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, unknown>);
    const undescribed = new Set<string>();
    const client = () =>
      jsonClient(service!.url, {
        peer: true,
        onReply: (reply) => {
          const mismatch = conformance.mismatch(reply);
          if (mismatch) undescribed.add(mismatch);
        },
      });
    const me = await signUp(client());
    await grantAdmin(env, me.email);
    admin = client();
    expect((await admin.request('POST', '/auth/sign-in', { email: me.email, password: me.password })).status).toBe(200);

    const created = await admin.request('POST', '/products', { name: 'Anvil', price: { amount: 9900, currency: 'EUR' }, [DETAIL]: 1200 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body[DETAIL]).toBe(1200);
    const id = created.body.productId as string;
    const createdAt = created.headers.get('event-position')!;
    const unstated = await admin.request('POST', '/products', { name: 'Feather', price: { amount: 1, currency: 'EUR' } });
    expect(unstated.body[DETAIL]).toBeNull();
    const refused = await admin.request('POST', '/products', { name: 'Cloud', price: { amount: 1, currency: 'EUR' }, [DETAIL]: -1 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.errors)).toContain(DETAIL);

    const changed = await admin.request('PATCH', `/products/${id}`, { [DETAIL]: 900 }, { 'If-Match': '"0"' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const position = changed.headers.get('event-position')!;
    const read = await admin.request('GET', `/products/${id}`, undefined, { 'Wait-For-Position': position });
    expect(read.body[DETAIL]).toBe(900);
    const history = await admin.request('GET', `/products/${id}/history`, undefined, { 'Wait-For-Position': position });
    expect(history.body.items[0].changes).toEqual([{ field: DETAIL, before: 1200, after: 900 }]);
    const asOf = await admin.request('GET', `/products/${id}?at=${createdAt}`);
    expect(asOf.status, JSON.stringify(asOf.body)).toBe(200);
    expect(asOf.body[DETAIL]).toBe(1200);

    const openApi = JSON.stringify((await admin.request('GET', '/openapi.json')).body);
    const asyncApi = JSON.stringify((await admin.request('GET', '/asyncapi.json')).body);
    expect(openApi).toContain(`"${DETAIL}"`);
    expect(asyncApi).toContain(`"${DETAIL}"`);
    expect([...undescribed]).toEqual([]);
  });
});
