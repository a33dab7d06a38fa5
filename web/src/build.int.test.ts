// The web app's build: it succeeds from a clean tree, and its first load stays small (the
// issue's budget: under 150 KB of compressed script; the API's schemas stay out of it).
import { describe, expect, it } from 'vitest';
import { buildApp } from './build.ts';

describe('the web app build', () => {
  it('ships under 150 KB of compressed script, without the schema library', async () => {
    const files = await buildApp();
    expect(files.script.gzip.length).toBeLessThan(150_000);
    expect(files.script.brotli.length).toBeLessThan(files.script.gzip.length);
    // zod's own error text: the client imports schemas as types only.
    expect(files.script.body.toString()).not.toContain('Invalid input');
    expect(files.page).toContain('/app.js');
  });
});
