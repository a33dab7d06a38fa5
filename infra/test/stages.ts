// `npm test`: the stages one after another, lint, types, the start bundle, then vitest's (unit, int, e2e, processes,
// browser: vitest.config.ts), stopping at the first that fails. Lint's and types' times are handed
// to vitest's time report (setup/time-report.ts), which prints every stage's in one table.
// Arguments go to vitest: `npm test -- --project e2e` still lints and type-checks first.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bin = (path: string) => join(ROOT, 'node_modules', path);

const seconds: Record<string, number> = {};

function stage(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const start = performance.now();
  const run = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
  seconds[name] = (performance.now() - start) / 1000;
  if (run.status !== 0) {
    console.error(
      `\nnpm test: the ${name} stage failed (${run.error?.message ?? `exit ${run.status ?? run.signal}`}) after ${seconds[name].toFixed(1)} s`,
    );
    process.exit(run.status || 1);
  }
}

// The scripts `npm run lint` and `npm run typecheck` run (package.json), as they are written there.
stage('lint', 'npm', ['run', '--silent', 'lint']);
stage('types', 'npm', ['run', '--silent', 'typecheck']);
// The tests start services with the start scripts, which run the start bundle when it is what the
// files make (infra/src/start): built here when it is not, so that they run as a user's do.
stage('bundle', process.execPath, [join(ROOT, 'infra/src/start/build-cli.ts'), '--if-stale', '--strict']);
stage('vitest', process.execPath, [bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], {
  ...process.env,
  EVENTIDE_STAGE_SECONDS: JSON.stringify(seconds),
});
