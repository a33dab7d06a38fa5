// The web app's build: it succeeds from a clean tree, and its first load stays small (the
// issue's budget: under 150 KB of compressed script; the API's schemas stay out of it). The
// editor's ShareDB client is a chunk of its own, fetched only by a document's page. A build is
// kept for the next start, which reads it while the files it was made from are unchanged.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AppFiles, buildApp } from './build.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-web-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the web app build', () => {
  it('ships under 150 KB of compressed script, without the schema library', async () => {
    const files = await buildApp(null);
    expect(files.made).toBe('built');
    expect(files.script.gzip.length).toBeLessThan(150_000);
    expect(files.script.brotli.length).toBeLessThan(files.script.gzip.length);
    // zod's own error text: the client imports schemas as types only.
    const chunks = await Promise.all([...files.chunks.values()].map((chunk) => chunk()));
    for (const file of [files.script, ...chunks]) expect(file.body.toString()).not.toContain('Invalid input');
    expect(files.page).toContain('/app.js');
  });

  it('leaves the editor out of the first load, in a chunk /app.js fetches when a document opens', async () => {
    const files = await buildApp(null);
    const chunks = await Promise.all([...files.chunks].map(async ([name, chunk]) => [name, await chunk()] as const));
    const editor = chunks.filter(([, file]) => file.body.toString().includes('getDocPresence'));
    expect(editor).toHaveLength(1);
    expect(files.script.body.toString()).not.toContain('getDocPresence');
    expect(files.script.body.toString()).toContain(`./app/${editor[0]![0]}`);
    for (const name of files.chunks.keys()) expect(name).toMatch(/^[A-Za-z0-9_-]+\.js$/);
  });

  it('is kept for the next start, which serves the same files without building', async () => {
    const at = join(dir, 'kept', 'app.json');
    const built = await buildApp(at);
    expect(built).toMatchObject({ made: 'built' });
    expect(built.notKept).toBeUndefined();
    const kept = await buildApp(at);
    expect(kept.made).toBe('kept');
    const same = async (files: AppFiles) => ({
      page: files.page,
      script: files.script,
      style: files.style,
      chunks: await Promise.all([...files.chunks].map(async ([name, chunk]) => [name, (await chunk()).body.toString()])),
    });
    expect(await same(kept)).toEqual(await same(built));
  });

  it('is built again when a file it was made from changed, and served when it cannot be kept', async () => {
    const at = join(dir, 'changed', 'app.json');
    await buildApp(at);
    const kept = JSON.parse(readFileSync(at, 'utf8')) as { inputs: [string, number, number][] };
    expect(kept.inputs.map(([path]) => path)).toEqual(expect.arrayContaining(['web/src/app/main.tsx', 'node_modules/.package-lock.json']));
    // As if the page's script had been edited since: another size.
    const main = kept.inputs.find(([path]) => path === 'web/src/app/main.tsx')!;
    main[1] += 1;
    writeFileSync(at, JSON.stringify(kept));
    expect((await buildApp(at)).made).toBe('built');
    expect((await buildApp(at)).made).toBe('kept');

    // Under a file, no directory can be made.
    writeFileSync(join(dir, 'a-file'), '');
    const unkept = await buildApp(join(dir, 'a-file', 'app.json'));
    expect(unkept.made).toBe('built');
    expect(unkept.notKept).toMatch(/ENOTDIR|EEXIST/);
    expect(unkept.script.gzip.length).toBeGreaterThan(0);
  });
});
