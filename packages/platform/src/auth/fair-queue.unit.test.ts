import { describe, expect, it } from 'vitest';
import { AppError } from '@eventide/contract/problems.ts';
import { FairQueue } from './fair-queue.ts';

/** A task that finishes when the test says so, recording when it started. */
function controlled(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish,
  };
}

const statusOf = (error: unknown) => (error instanceof AppError ? error.status : undefined);

describe('FairQueue', () => {
  it('serves clients round-robin, so a burst from one delays another by one task at most', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 10, maxWaiting: 100 });
    const started: string[] = [];
    const burst = Array.from({ length: 5 }, (_, i) => controlled(started, `a${i}`));
    const results = burst.map((t) => queue.run('a', t.task));
    const victim = controlled(started, 'b0');
    const victimDone = queue.run('b', victim.task);
    expect(started).toEqual(['a0']);
    burst[0]!.finish();
    await results[0];
    // The victim goes next, ahead of the four the attacker had in line before it.
    expect(started).toEqual(['a0', 'b0']);
    victim.finish();
    expect(await victimDone).toBe('b0');
    for (const t of burst.slice(1)) t.finish();
    expect(await Promise.all(results)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
  });

  it('takes every client in turn, a newcomer after those already waiting for the same turn', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 10, maxWaiting: 100 });
    const started: string[] = [];
    const names = ['a0', 'a1', 'a2', 'b0', 'b1', 'c0'];
    const tasks = names.map((name) => ({ name, ...controlled(started, name) }));
    const results = tasks.map((t) => queue.run(t.name[0]!, t.task));
    // Finish each task once it has started: the order they start in is the queue's.
    for (let i = 0; i < names.length; i++) {
      const running = names.indexOf(started[i]!);
      tasks[running]!.finish();
      await results[running];
    }
    expect(started).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  });

  it('runs at most perClientRunning of one client at once, even with free slots', async () => {
    const queue = new FairQueue({ concurrency: 4, perClientRunning: 1, perClientWaiting: 10, maxWaiting: 100 });
    const started: string[] = [];
    const tasks = Array.from({ length: 3 }, (_, i) => controlled(started, `a${i}`));
    const results = tasks.map((t) => queue.run('a', t.task));
    expect(started).toEqual(['a0']);
    expect(queue.size).toEqual({ running: 1, waiting: 2 });
    for (const t of tasks) t.finish();
    await Promise.all(results);
    expect(started).toEqual(['a0', 'a1', 'a2']);
  });

  it('refuses a client over its share with 429; a full line makes room for a newcomer, then is 503 for everyone', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 2, maxWaiting: 3 });
    const started: string[] = [];
    const blocker = controlled(started, 'a0');
    const accepted = [queue.run('a', blocker.task), queue.run('a', async () => 'a1')];
    const shed = queue.run('a', async () => 'a2');
    await expect(queue.run('a', async () => 'a3')).rejects.toSatisfy((e) => statusOf(e) === 429);
    accepted.push(queue.run('b', async () => 'b0'));
    // The line is full (a1, a2, b0): c, with nothing in it, takes the place of a's newest.
    accepted.push(queue.run('c', async () => 'c0'));
    await expect(shed).rejects.toSatisfy((e) => statusOf(e) === 503);
    // Now no client has more in line than a newcomer would: the line is full for everyone.
    await expect(queue.run('d', async () => 'd0')).rejects.toSatisfy((e) => statusOf(e) === 503);
    blocker.finish();
    expect(await Promise.all(accepted)).toEqual(['a0', 'a1', 'b0', 'c0']);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a task whose client went away before its turn, and frees its place', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 5, maxWaiting: 10 });
    const started: string[] = [];
    const blocker = controlled(started, 'a0');
    const first = queue.run('a', blocker.task);
    const gone = new AbortController();
    const abandoned = queue.run('b', async () => started.push('b0'), gone.signal);
    gone.abort();
    blocker.finish();
    await first;
    await expect(abandoned).rejects.toSatisfy((e) => statusOf(e) === 503);
    expect(started).toEqual(['a0']);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 5, maxWaiting: 10 });
    await expect(queue.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run('a', async () => 'next')).toBe('next');
  });
});
