// The web app's build: it succeeds from a clean tree, and its first load stays small (the
// issue's budget: under 150 KB of compressed script; the API's schemas stay out of it). The
// editor's ShareDB client is a chunk of its own, fetched only by a document's page.
import { describe, expect, it } from 'vitest';
import { buildApp } from './build.ts';

describe('the web app build', () => {
  it('ships under 150 KB of compressed script, without the schema library', async () => {
    const files = await buildApp();
    expect(files.script.gzip.length).toBeLessThan(150_000);
    expect(files.script.brotli.length).toBeLessThan(files.script.gzip.length);
    // zod's own error text: the client imports schemas as types only.
    const chunks = await Promise.all([...files.chunks.values()].map((chunk) => chunk()));
    for (const file of [files.script, ...chunks]) expect(file.body.toString()).not.toContain('Invalid input');
    expect(files.page).toContain('/app.js');
  });

  it('leaves the editor out of the first load, in a chunk /app.js fetches when a document opens', async () => {
    const files = await buildApp();
    const chunks = await Promise.all([...files.chunks].map(async ([name, chunk]) => [name, await chunk()] as const));
    const editor = chunks.filter(([, file]) => file.body.toString().includes('getDocPresence'));
    expect(editor).toHaveLength(1);
    expect(files.script.body.toString()).not.toContain('getDocPresence');
    expect(files.script.body.toString()).toContain(`./app/${editor[0]![0]}`);
    for (const name of files.chunks.keys()) expect(name).toMatch(/^[A-Za-z0-9_-]+\.js$/);
  });
});
