import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // Every reply a test client gets is checked against /openapi.json (the file says how).
    setupFiles: ['infra/test/setup/openapi-conformance.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
