// What the start scripts run: `node infra/src/start/launch.ts <entry point>`. The entry point from
// the current bundle (bundle.ts) when that was made from the files as they are, which starts
// sooner; else from the sources, as Node runs TypeScript, while a build of the bundle runs in the
// background, for the next start. START_BUNDLE=off always runs the sources.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundleOf, ROOT } from './manifest.ts';
import { releaseBuildLock, takeBuildLock } from './lock.ts';

const entry = process.argv[2];
if (!entry) {
  console.error('usage: node infra/src/start/launch.ts <entry point, from the repository root>');
  process.exit(2);
}

/** Starts a build at the lowest priority, which outlives this process if it must; says what became of it. */
function buildInBackground(): string {
  const lock = takeBuildLock();
  if (lock !== 'taken') return lock === 'busy' ? 'another start is building the bundle' : `the bundle cannot be built here (${lock})`;
  try {
    const build = spawn(process.execPath, [fileURLToPath(new URL('./build-cli.ts', import.meta.url)), '--lock-held', '--quiet'], {
      cwd: ROOT,
      detached: true,
      stdio: 'ignore',
    });
    build.on('error', releaseBuildLock);
    build.unref();
    try {
      if (build.pid !== undefined) setPriority(build.pid, 19);
    } catch {
      // It has ended already, or the system refuses: it builds at the usual priority.
    }
    return 'the bundle is being built for the next start';
  } catch (error) {
    releaseBuildLock();
    return `the bundle could not be built (${(error as Error).message})`;
  }
}

const choice = process.env.START_BUNDLE || 'on';
if (choice !== 'on' && choice !== 'off') {
  console.error(`START_BUNDLE must be on or off (unset: on), not ${JSON.stringify(choice)}`);
  process.exit(2);
}
const bundle = choice === 'off' ? undefined : freshBundleOf(entry);
if (bundle && 'url' in bundle) {
  await import(bundle.url.href);
} else {
  if (bundle) {
    console.error(`starting from the sources, not the start bundle: ${bundle.stale}; ${buildInBackground()}`);
  }
  await import(pathToFileURL(`${ROOT}${entry}`).href);
}
