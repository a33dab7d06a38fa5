// The editor page's files: HTML and CSS as written, and the script bundled once (esbuild) from
// editor.ts with the ShareDB client and the rich-text type, on first request.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface EditorAssets {
  html: string;
  css: string;
  script(): Promise<string>;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export function editorAssets(): EditorAssets {
  let bundle: Promise<string> | undefined;
  return {
    html: readFileSync(here('editor.html'), 'utf8'),
    css: readFileSync(here('editor.css'), 'utf8'),
    script() {
      bundle ??= import('esbuild')
        .then((esbuild) =>
          esbuild.build({
            entryPoints: [here('editor.ts')],
            bundle: true,
            write: false,
            format: 'iife',
            platform: 'browser',
            target: 'es2022',
            minify: true,
            legalComments: 'none',
          }),
        )
        .then((result) => result.outputFiles[0]!.text);
      // A failed build is tried again on the next request rather than cached.
      bundle.catch(() => (bundle = undefined));
      return bundle;
    },
  };
}
