import { describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { memoryLimiters } from '@eventide/platform/auth/rate-limit.ts';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { until } from '@eventide/testing/wait.ts';
import { progressSignal } from '../compose.ts';
import { newDoor } from './hand-over.ts';
import { startRequestThreads } from './pool.ts';

/** A thread whose start fails, as one whose stores cannot be reached as it opens them. */
const FAILING = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("the read models cannot be reached")')}`);
/** A thread that starts, says it listens, and ends on its own a moment later, as a crash would end it. */
const ENDING = new URL(
  `data:text/javascript,${encodeURIComponent(`
    import { parentPort } from 'node:worker_threads';
    parentPort.postMessage({ type: 'listening' });
    setTimeout(() => process.exit(3), 50);
  `)}`,
);

function pool(entry: URL) {
  const captured = capturedLog('info');
  const started = startRequestThreads({
    entry,
    name: 'eventide',
    config: loadConfig({}),
    log: captured.log,
    threads: 2,
    door: newDoor(),
    limits: { served: memoryLimiters() },
    projected: progressSignal(),
  });
  return { captured, started };
}

const messages = (captured: ReturnType<typeof capturedLog>) => captured.lines.map((line) => String(line.msg));

describe('the request threads of a process', () => {
  it('tries again, with backoff, a thread that cannot start, and the process goes on', async () => {
    const { captured, started } = pool(FAILING);
    const threads = await started;
    await until(
      () => messages(captured).filter((msg) => msg.includes('could not be started')).length >= 2,
      () => `two failed starts, logged; the log: ${captured.text()}`,
    );
    expect(threads.health()).toEqual({ requestThreads: 1, listening: 0, restarts: 0 });
    expect(captured.text()).toContain('the read models cannot be reached');
    await threads.stop();
  });

  it('starts again a thread that ends on its own, and counts it', async () => {
    const { captured, started } = pool(ENDING);
    const threads = await started;
    await until(
      () => threads.health().restarts >= 2,
      () => `two restarts; the log: ${captured.text()}`,
    );
    expect(messages(captured)).toContain('a request thread ended; it starts again');
    await threads.stop();
  });
});
