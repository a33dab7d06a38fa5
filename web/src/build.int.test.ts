// The web app's build: it succeeds from a clean tree, and its first load stays small (the
// issue's budget: under 150 KB of compressed script; the API's schemas stay out of it).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from './build.ts';

describe('the web app build', () => {
  it('ships under 150 KB of compressed script, without the schema library', async () => {
    const files = await buildApp();
    expect(gzipSync(files.script).length).toBeLessThan(150_000);
    // zod's own error text: the client imports schemas as types only.
    expect(files.script).not.toContain('Invalid input');
    expect(files.page).toContain('/app.js');
  });
});
