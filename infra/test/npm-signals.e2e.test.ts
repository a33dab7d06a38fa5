// `npm start` and every `npm run start:*` end their server when npm itself is sent SIGTERM or
// SIGINT, as a container runtime or a service manager sends it to the process it started (and
// only to that one). npm passes the signal on to its script's process; each script `exec`s node,
// so that process is the server and not a shell that would ignore it and leave node serving.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { freePort } from './process.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPTS: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
const SERVERS = Object.keys(SCRIPTS).filter((name) => name === 'start' || name.startsWith('start:'));

/** Whether a process with this id is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const CASES = [...SERVERS.map((script) => ({ script, signal: 'SIGTERM' as const })), { script: 'start', signal: 'SIGINT' as const }];

describe('npm scripts that start a server', () => {
  it('are all covered here', () => {
    expect(SERVERS).toEqual(expect.arrayContaining(['start', 'start:command', 'start:query', 'start:projector', 'start:collab']));
  });

  // Bounds inside the test's own: a server left behind is killed by the `finally`, not leaked by a timeout.
  it.each(CASES)(
    'npm run $script: $signal to npm alone ends the server, after its shutdown',
    { timeout: 120_000 },
    async ({ script, signal }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'eventide-signals-'));
      const port = await freePort();
      // A new process group: the signal goes to npm only, never to the group as a terminal's Ctrl-C would.
      const npm = spawnInGroup('npm', ['run', '--silent', script], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      npm.stdout!.on('data', (chunk) => (output += chunk));
      npm.stderr!.on('data', (chunk) => (output += chunk));
      const npmExited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      let serverPid: number | undefined;
      try {
        await until(() => /"msg":"listening"/.test(output), `npm run ${script} to listen (output so far: ${output.slice(-300)})`, 60_000);
        const listening = output.split('\n').find((line) => line.includes('"msg":"listening"'))!;
        serverPid = (JSON.parse(listening) as { pid: number }).pid;
        expect(serverPid).not.toBe(npm.pid);
        expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

        npm.kill(signal);
        await until(() => !alive(serverPid!), `the server (pid ${serverPid}) to end after ${signal} to npm`);
        expect(output).toContain(`"signal":"${signal}","msg":"shutting down"`);
        expect(await npmExited).toBe(0);
        await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
      } finally {
        if (serverPid !== undefined && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
        if (npm.exitCode === null) npm.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
