// The clock a test moves (TEST_CLOCK_FILE): every reader sees the offset the file holds, is told
// when it jumps, and keeps the offset it had when the file holds nonsense.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { fileClock, setClockOffset } from './clock.ts';
import { createLogger } from './log.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger({ level: 'silent' });
const HOUR = 3_600_000;

it('adds the offset the file holds, to every clock that names it, and wakes them when it moves', async () => {
  const path = join(dir, 'clock');
  const first = fileClock(path, log);
  const second = fileClock(path, log);
  try {
    expect(Math.abs(first.now() - Date.now())).toBeLessThan(HOUR);
    let jumps = 0;
    const stop = second.onJump(() => jumps++);
    setClockOffset(path, 24 * HOUR);
    // Told without asking the time: a timer asleep until a deadline wakes.
    await until(() => jumps === 1, 'the second clock to be told of the jump');
    for (const clock of [first, second]) expect(clock.now() - Date.now()).toBeGreaterThan(23 * HOUR);
    stop();
  } finally {
    first.close();
    second.close();
  }
});

it('keeps the offset it had when the file holds something else than milliseconds', () => {
  const path = join(dir, 'garbled');
  setClockOffset(path, 2 * HOUR);
  const clock = fileClock(path, log);
  try {
    expect(clock.now() - Date.now()).toBeGreaterThan(HOUR);
    writeFileSync(path, 'tomorrow\n');
    expect(clock.now() - Date.now()).toBeGreaterThan(HOUR);
    rmSync(path);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(HOUR);
  } finally {
    clock.close();
  }
});
