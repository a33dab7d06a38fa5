import { describe, expect, it } from 'vitest';
import { packagesNamedIn } from '../packaging/package-names.ts';

/** A specifier in quotes, built here so that this file's own text names none of these packages. */
const quoted = (name: string, quote = "'") => `${quote}${name}${quote}`;

describe('the packages a file names', () => {
  it('are found in every form code and bundles name them, by package, without Node’s own or relative ones', () => {
    const text = [
      `import { z } from ${quoted('zod')};`,
      `export{a}from${quoted('koa', '"')};`,
      `const m = await import(${quoted('pino')});`,
      `const api = require(${quoted('@opentelemetry/api')});`,
      // A bundle prints `const require = createRequire(import.meta.url)` inlined where it is called.
      `const { trace } = createRequire(import.meta.url)(${quoted('@opentelemetry/sdk-trace', '"')});`,
      `const Memory = require(${quoted('rate-limiter-flexible/lib/RateLimiterMemory.js')});`,
      `import { readFileSync } from ${quoted('node:fs')};`,
      `import { join } from ${quoted('path')};`,
      `import { local } from ${quoted('./local.ts')};`,
    ].join('\n');
    expect([...packagesNamedIn(text)].sort()).toEqual([
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace',
      'koa',
      'pino',
      'rate-limiter-flexible',
      'zod',
    ]);
  });
});
