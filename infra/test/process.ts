// Runs the real entry point (`npm start`'s main.ts) as a child process, for tests that kill it.
// Ready means what it means to a user: GET /health answers 200.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface RunningService {
  url: string;
  child: ChildProcess;
  /** Ends the process the hard way: no shutdown hooks, no flush. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).status === 200;
  } catch {
    return false;
  }
}

export async function startService(env: Record<string, string>, timeoutMs = 20_000): Promise<RunningService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const deadline = Date.now() + timeoutMs;
  while (!(await healthy(url))) {
    if (exitCode !== undefined) throw new Error(`service exited with ${exitCode}: ${stderr.join('')}`);
    if (Date.now() > deadline) throw new Error(`service not healthy within ${timeoutMs} ms: ${stderr.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    child,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
