// The commands the README and docs/ show, run as written against `npm start`'s real process on a
// fresh data directory: every code block marked "run as written by" this file. Only the address
// changes (the test's free port for localhost:3000); a block passes when it exits 0 and prints
// no problem document.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from './process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HAS_CURL = spawnSync('curl', ['--version']).status === 0;
if (!HAS_CURL) console.warn('SKIPPED: the documented shell commands: curl is not installed (apt-get install -y curl)');
const MARK = '<!-- run as written by infra/test/documented-commands.e2e.test.ts -->';

interface Block {
  file: string;
  language: 'sh' | 'ts';
  code: string;
}

function markedBlocks(): Block[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split(MARK)
      .slice(1)
      .map((after) => {
        const match = /^\s*```(sh|ts)\n([\s\S]*?)```/.exec(after);
        if (!match) throw new Error(`${file}: the mark is not followed by a sh or ts code block`);
        return { file, language: match[1] as 'sh' | 'ts', code: match[2]! };
      }),
  );
}

function run(block: Block, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const [command, args] =
    block.language === 'sh'
      ? ['bash', ['-euo', 'pipefail', '-c', block.code]]
      : [process.execPath, ['--input-type=module-typescript', '-e', block.code]];
  const child = spawn(command, args as string[], { cwd: env.WORK_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

let service: RunningService;
let dataDir: string;
let workDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'eventide-docs-data-'));
  workDir = mkdtempSync(join(tmpdir(), 'eventide-docs-work-'));
  service = await startService({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

describe('the documented commands', { timeout: 120_000 }, () => {
  const blocks = markedBlocks();
  it('are found', () => expect(blocks.length).toBeGreaterThanOrEqual(2));

  // In the order the docs give them: the README's first steps make the account the others use.
  for (const [i, block] of blocks.entries()) {
    const maybe = block.language === 'sh' && !HAS_CURL ? it.skip : it;
    maybe(`${block.file}, block ${i + 1} (${block.language}), runs as written`, async () => {
      const address = new URL(service.url).host;
      const code = block.code.replaceAll('localhost:3000', address);
      // sh blocks run where a user would run them: npm scripts from the repo, curl's files in a scratch directory.
      const env = { DATA_DIR: dataDir, WORK_DIR: block.language === 'ts' ? ROOT : workDir };
      const { code: exit, output } = await run(
        {
          ...block,
          code:
            block.language === 'sh'
              ? `cd ${JSON.stringify(workDir)}; npm() { (cd ${JSON.stringify(ROOT)} && command npm "$@"); }\n${code}`
              : code,
        },
        env,
      );
      expect(output, 'no problem document in the output').not.toMatch(/"type":"\/problems\//);
      expect(exit, output).toBe(0);
    });
  }
});
