// What stops `npm start` before it serves: a setting it cannot work with, named, with exit code 2
// (docs/operations.md#configuration), rather than a crash its runner would only repeat.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_BOUND_MS, until } from '@eventide/testing/wait.ts';
import { freePort, lastLines, spawnService } from './process.ts';

let dataDir: string;
let holder: Server;
let heldPort: number;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'eventide-refusals-'));
  heldPort = await freePort();
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(heldPort, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

/** How `npm start` with `env` ended, and what it wrote. */
async function startRefused(env: Record<string, string>): Promise<{ code: number | null | undefined; output: string }> {
  const service = await spawnService({ DATA_DIR: dataDir, ...env });
  try {
    await until(
      () => service.exitCode() !== undefined,
      () => `npm start to exit; it wrote:\n${lastLines(service.output())}`,
      START_BOUND_MS,
    );
  } finally {
    await service.kill();
  }
  return { code: service.exitCode(), output: service.output() };
}

describe('a start refused for its settings', () => {
  it('a port another process holds: exit 2, naming PORT and the address', async () => {
    const refused = await startRefused({ PORT: String(heldPort) });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(
      `PORT: 127.0.0.1:${heldPort} is taken by another process (EADDRINUSE); stop it, or set PORT to a free port`,
    );
  });

  it('the metrics on a port another process holds: exit 2, naming METRICS_PORT', async () => {
    const refused = await startRefused({ METRICS_PORT: String(heldPort) });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(`METRICS_PORT: 127.0.0.1:${heldPort} is taken by another process (EADDRINUSE)`);
  });

  it('the metrics on the service port: exit 2 before anything is opened, naming METRICS_PORT', async () => {
    const port = String(await freePort());
    const refused = await startRefused({ PORT: port, METRICS_PORT: port });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('METRICS_PORT: the same as PORT, on an address both would listen on');
  });
});
