// The editor page's files: HTML and CSS as written, and the script bundled once (esbuild) from
// editor.ts with the ShareDB client and the rich-text type, on first request; the files held
// compressed in memory (static-file.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { staticFile, type StaticFile } from '@eventide/platform/http/static-file.ts';

export interface EditorAssets {
  html: string;
  css: Promise<StaticFile>;
  script(): Promise<StaticFile>;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export function editorAssets(): EditorAssets {
  let bundle: Promise<StaticFile> | undefined;
  const css = staticFile('text/css; charset=utf-8', readFileSync(here('editor.css'), 'utf8'));
  return {
    html: readFileSync(here('editor.html'), 'utf8'),
    css,
    script() {
      bundle ??= import('esbuild')
        .then(async (esbuild) => {
          const result = await esbuild.build({
            entryPoints: [here('editor.ts')],
            bundle: true,
            write: false,
            format: 'iife',
            platform: 'browser',
            target: 'es2022',
            minify: true,
            legalComments: 'none',
          });
          // esbuild's child process is not kept for a build that happens once (web/src/build.ts says why).
          await esbuild.stop();
          return result;
        })
        .then((result) => staticFile('text/javascript; charset=utf-8', result.outputFiles[0]!.text));
      // A failed build is tried again on the next request rather than cached.
      bundle.catch(() => (bundle = undefined));
      return bundle;
    },
  };
}
