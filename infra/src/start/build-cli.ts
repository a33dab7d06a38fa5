// Builds the start scripts' bundle (bundle.ts): `npm run build:start`. `npm ci` and `npm install`
// run it (the `prepare` script), `npm test` before its stages (--if-stale --strict: the tests'
// processes start as users' do), and a start that finds it stale in the background (launch.ts).
// A failure does not fail an install: the start scripts then run from the sources. It also builds
// the web app ahead and keeps it (web/src/build.ts), unless the kept one is current, so that even
// the first start after an install serves the app without building it (and an image's, whose
// node_modules it may not write).
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { stop } from 'esbuild';
import { buildApp, KEPT_BUILD } from '@eventide/web/src/build.ts';
import { buildStartBundle, START_ENTRIES } from './bundle.ts';
import { releaseBuildLock } from './lock.ts';
import { freshBundleOf, ROOT, START_CACHE } from './manifest.ts';

const { values } = parseArgs({
  options: {
    /** Started by launch.ts, which took the lock: release it at the end. */
    'lock-held': { type: 'boolean' },
    quiet: { type: 'boolean' },
    /** Nothing to do when the current bundle is still what the files make. */
    'if-stale': { type: 'boolean' },
    /** Exit 1 when the bundle cannot be built. */
    strict: { type: 'boolean' },
  },
});
let failed = false;
try {
  if (!values['if-stale'] || START_ENTRIES.some((entry) => 'stale' in freshBundleOf(entry))) {
    const { manifest, files, ms } = await buildStartBundle();
    if (!values.quiet) {
      console.log(
        `start bundle: ${Object.keys(manifest.entries).length} entry points from ${files} files in ${(ms / 1000).toFixed(1)} s (${relative(ROOT, join(START_CACHE, manifest.dir))})`,
      );
    }
  }
} catch (error) {
  failed = true;
  console.warn(
    `start bundle: not built, so the start scripts run from the sources (${error instanceof Error ? error.message : String(error)})`,
  );
}
try {
  const app = await buildApp();
  if (app.notKept) throw new Error(app.notKept);
  if (!values.quiet && app.made === 'built') {
    console.log(`web app: built and kept for the starts (${relative(ROOT, KEPT_BUILD)})`);
  }
} catch (error) {
  failed = true;
  console.warn(`web app: not built ahead, so each start builds it (${error instanceof Error ? error.message : String(error)})`);
} finally {
  // esbuild's own process would otherwise keep this one alive.
  await stop();
  if (values['lock-held']) releaseBuildLock();
}
if (failed && values.strict) process.exit(1);
