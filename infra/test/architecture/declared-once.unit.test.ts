// The route table (packages/contract/src/operations.ts) is the one place that says which paths exist and
// who may call them; the mount (packages/platform/src/http/mount.ts) is the one place that serves it. So no
// other source file declares a route or checks a role: a second copy is how a customer once got
// to mark their own order shipped. The rules that do look at roles are named here, with why.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every source file of the services and shared, tests and the browser's own pages left out. */
function sources(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*/src/*.ts', '*/src/**/*.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file && !/\.test\.ts$|^web\/src\/app\/|^infra\//.test(file) && existsSync(`${ROOT}${file}`));
  return [...new Set(files)];
}

/** Where a role may be looked at: where it is defined, where the table is enforced, and the rules the table points to. */
const MAY_LOOK_AT_ROLES: Record<string, string> = {
  'packages/kernel/src/models/principal.ts': 'defines who acts with an admin’s authority, and the `self` rule',
  'packages/platform/src/auth/session.ts': 'defines sessions, their roles and the principal made of them',
  'packages/platform/src/http/mount.ts': 'enforces each route’s access level',
  'packages/platform/src/http/app.ts': 'readiness says what each check saw to admins only, as /health/ready’s route describes',
  'packages/kernel/src/models/order/life-cycle.ts': 'the order’s rules: who sees an order, whose a list holds, who takes each step',
  'collab-service/src/document-rules.ts':
    'the document rules the collab service’s `owner` routes name: members read, the owner shares, editors name',
  'query-service/src/live/resources.ts':
    'a live stream shows a change to whom its entity’s read route admits, by that route’s declared access',
  'collab-service/src/sharedb/access.ts':
    'the document access rule, for the WebSocket’s messages (the HTTP routes take it through the mount)',
  'collab-service/src/sharedb/message-checks.ts': 'the WebSocket’s own messages, which no route declares',
  'collab-service/src/sharedb/quotas.ts':
    'a create over the WebSocket spends the route’s limit, sparing admins as its policy says; the quota on documents owned spares them too',
};
const MAY_MAKE_ROUTERS = ['packages/platform/src/http/mount.ts', 'packages/platform/src/http/routes-by-segment.ts'];

describe('each rule declared once', () => {
  const files = sources().map((file) => ({ file, text: readFileSync(`${ROOT}${file}`, 'utf8') }));

  it('reads the sources it checks', () => {
    expect(files.some((f) => f.file === 'command-service/src/order/handlers.ts')).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it('declares no route outside the table: no router of its own, no path given to one', () => {
    const found = files.flatMap(({ file, text }) =>
      [...text.matchAll(/new Router\(|\brouter\.(?:get|post|put|patch|delete|all|use)\(|\.routes\(\)/g)]
        .filter(() => !MAY_MAKE_ROUTERS.includes(file))
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('checks no role by hand outside the mount and the rules it applies', () => {
    const found = files.flatMap(({ file, text }) =>
      [
        ...text.matchAll(
          /\b(?:requireUser|requireAdmin|isAdmin|mayActFor|actsAsAdmin|isSelfOrAdmin)\(|roles\.includes\('admin'\)|\.admin\b(?!\()/g,
        ),
      ]
        .filter(() => !(file in MAY_LOOK_AT_ROLES))
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('keeps the command side’s use cases apart from Koa: only its handlers, http/ and the OAuth flow’s cookie know requests', () => {
    const adapters = /^command-service\/src\/(handlers\.ts|[^/]+\/handlers\.ts|http\/|oauth\/flow\.ts$)/;
    const useCases = files.filter(({ file }) => file.startsWith('command-service/src/') && !adapters.test(file));
    expect(useCases.some(({ file }) => file === 'command-service/src/identity/identity.ts')).toBe(true);
    expect(
      useCases.filter(({ text }) => /from 'koa'|from '@koa\/|from '@eventide\/platform\/http\//.test(text)).map((f) => f.file),
    ).toEqual([]);
  });

  it('has deciders and the write side’s core that import nothing from HTTP or the platform, for a type or anything else', () => {
    // What a decider needs of a role or a revision is the domain's (kernel/models), not a session's or a request's.
    const core = files.filter(({ file }) =>
      /\/decide\.ts$|\/models\/|^command-service\/src\/(handle|aggregate|account\/account)\.ts$/.test(file),
    );
    expect(core.length).toBeGreaterThan(7);
    expect(
      core.filter(({ text }) => /from '[^']*\/http\/|from 'koa'|from '@koa\/|from '@eventide\/platform\//.test(text)).map((d) => d.file),
    ).toEqual([]);
  });
});
