// Starts a benchmark peer in its own process; the peer prints {"port": n} on its first line.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export async function spawnServer(
  script: string,
  env: Record<string, string> = {},
): Promise<{ port: number; pid: number | undefined; stop: () => void }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return { port, pid: child.pid, stop: () => child.kill() };
}
