import { describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { betweenWrites } from './between-writes.ts';

/** One turn of the event loop: what runs between two writes. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('work left for between writes', () => {
  it('runs one step a turn, on the generation last written, for as long as the steps find work', async () => {
    const steps: number[] = [];
    let left = 3;
    const deferred = betweenWrites((generation) => {
      steps.push(generation);
      return --left > 0;
    });
    deferred.after(7, true);
    deferred.after(8, true);
    // Nothing runs in the write itself, and two writes in one turn start the steps once.
    expect(steps).toEqual([]);
    await turn();
    expect(steps).toEqual([8]);
    await until(() => steps.length === 3, 'the three steps');
    await turn();
    expect(steps).toEqual([8, 8, 8]);
  });

  it('a step that fails ends the steps until the next write; stop ends them for good', async () => {
    let steps = 0;
    let failing = true;
    const deferred = betweenWrites(() => {
      steps++;
      if (failing) throw new Error('no such table');
      return steps < 3;
    });
    deferred.after(1, true);
    await until(() => steps === 1, 'the failing step');
    await turn();
    await turn();
    expect(steps).toBe(1);
    failing = false;
    deferred.after(1, true);
    await until(() => steps === 3, 'the steps after the next write');
    deferred.stop();
    deferred.after(1, true);
    await turn();
    await turn();
    expect(steps).toBe(3);
  });

  it('a write announced holds the steps until a write comes, one that leaves no work included', async () => {
    let steps = 0;
    const deferred = betweenWrites(() => {
      steps++;
      return steps < 4;
    });
    deferred.after(1, true);
    await turn();
    expect(steps).toBe(1);
    // The projector has events in hand: the step queued meanwhile gives way to its write.
    deferred.expect();
    await turn();
    await turn();
    expect(steps).toBe(1);
    // Its write (sign-ups, say) gives the steps no work of its own; the held work goes on.
    deferred.after(1, false);
    await until(() => steps === 4, 'the held steps, after the write');
    await turn();
    expect(steps).toBe(4);
  });

  it('a write that leaves no work starts no steps, when none were held', async () => {
    let steps = 0;
    const deferred = betweenWrites(() => {
      steps++;
      return false;
    });
    deferred.expect();
    deferred.after(1, false);
    await turn();
    await turn();
    expect(steps).toBe(0);
    deferred.after(1, true);
    await until(() => steps === 1, 'the step after a write that left work');
  });
});
