// Standard output is written in batches (log.ts): these run a process that logs, and read what
// reaches its stdout, to hold what batching must not cost: lines arrive while the process runs,
// warnings at once, nothing waiting is lost on exit or crash, and every line arrives whole and in order.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';

const LOG_MODULE = fileURLToPath(new URL('./log.ts', import.meta.url));

/** Runs `body` in a process with `log`, a logger on stdout; its output as it comes, and its exit. */
function logging(body: string) {
  const child = spawnInGroup(
    process.execPath,
    ['--input-type=module', '-e', `import { createLogger } from ${JSON.stringify(LOG_MODULE)};\nconst log = createLogger();\n${body}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    output: () => stdout,
    messages: () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
    errors: () => stderr,
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

describe('log lines on stdout', () => {
  it('writes an info line while the process keeps running, without waiting for more', async () => {
    const child = logging(`log.info('alone'); setInterval(() => {}, 60_000);`);
    try {
      await until(() => child.output().includes('"msg":"alone"'), 'the info line on stdout');
    } finally {
      child.kill();
    }
  });

  it('writes a warning at once, after the info lines waiting before it', async () => {
    // Then the event loop never turns again: no timer runs and no exit handler, so only a
    // write made by log.warn itself can bring the lines out.
    // The warning comes from a request's logger, a child, as most warnings do.
    const child = logging(
      `log.info('waiting'); log.child({ correlationId: 'c1' }, { redact: [] }).warn('urgent'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);`,
    );
    try {
      await until(() => child.output().includes('"msg":"urgent"'), 'the warning on stdout');
      expect(child.messages()).toEqual(['waiting', 'urgent']);
    } finally {
      child.kill();
    }
  });

  it('writes every waiting line, whole and in order, when the process exits', async () => {
    const child = logging(`for (let i = 0; i < 1000; i++) log.info({ i }, 'line ' + i); process.exit(0);`);
    expect(await child.exited).toBe(0);
    expect(child.messages()).toEqual(Array.from({ length: 1000 }, (_, i) => `line ${i}`));
  });

  it('answers flush, as shutdown awaits it before exiting', async () => {
    // Something keeps the loop alive, as the followers' thread does: only the answer ends it.
    const child = logging(
      `setInterval(() => {}, 60_000); log.info('last'); log.flush(() => { process.stderr.write('flushed'); process.exit(0); });`,
    );
    try {
      expect(await child.exited).toBe(0);
      expect(child.errors()).toBe('flushed');
      expect(child.messages()).toEqual(['last']);
    } finally {
      child.kill();
    }
  });

  it('writes the lines before a crash', async () => {
    const child = logging(`log.info('before the crash'); throw new Error('crashed');`);
    expect(await child.exited).toBe(1);
    expect(child.errors()).toContain('crashed');
    expect(child.messages()).toEqual(['before the crash']);
  });
});
