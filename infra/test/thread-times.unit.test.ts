import { describe, expect, it } from 'vitest';
import { ThreadTimes, threadTicks } from '../bench/thread-times.ts';

/** Keeps this thread on the processor until the process has spent `ms` more of CPU (the kernel counts in ticks of 10 ms). */
const spin = (ms: number) => {
  const spent = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const end = spent() + ms;
  while (spent() < end);
};

describe.skipIf(process.platform !== 'linux')('ThreadTimes (the bench: CPU a request by thread, from /proc)', () => {
  it("counts the process's CPU during a load, per request and by kind of thread", async () => {
    const times = new ThreadTimes();
    const made = await times.measure(
      process.pid,
      async () => {
        spin(300);
        return 3;
      },
      (requests) => requests,
    );
    expect(made).toBe(3);
    const cpu = times.perRequest()!;
    // 300 ms of CPU over 3 requests: 100,000 µs each, give or take a tick at either end.
    expect(cpu.total).toBeGreaterThanOrEqual(90_000);
    const kinds = Object.values(cpu.byKind);
    expect(kinds.reduce((sum, micros) => sum + micros, 0)).toBeGreaterThanOrEqual(cpu.total - kinds.length);
  });

  it('says nothing for a process it cannot read, rather than a figure of zero', async () => {
    expect(threadTicks(2 ** 22 + 1)).toBeUndefined();
    const times = new ThreadTimes();
    await times.measure(
      2 ** 22 + 1,
      async () => 10,
      (requests) => requests,
    );
    expect(times.perRequest()).toBeUndefined();
  });
});
