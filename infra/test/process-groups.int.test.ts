// What a test leaves running is found, named and killed with everything it started in turn.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { killGroup, killLeftoverGroups, spawnInGroup } from '@eventide/testing/processes.ts';
import { until } from '@eventide/testing/wait.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    // A zombie awaits its parent's wait: it runs no more.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

/** A shell that starts a sleeping grandchild, says its pid, and waits: a process tree like npm's. */
async function tree(): Promise<{ leader: ReturnType<typeof spawnInGroup>; grandchild: number }> {
  const leader = spawnInGroup('sh', ['-c', 'sleep 600 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  leader.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  await until(() => /\d+\n/.test(out), 'the shell to name its child');
  return { leader, grandchild: Number(out.trim()) };
}

describe('process groups started by tests', () => {
  it('are named and killed, grandchildren too, when a test leaves them running', async () => {
    const { leader, grandchild } = await tree();
    const left = await killLeftoverGroups(0);
    expect(left).toEqual([expect.stringContaining(`sh -c sleep 600 & echo $!; wait (process group ${leader.pid})`)]);
    await until(() => !alive(leader.pid!) && !alive(grandchild), 'the shell and its sleeping child to be gone');
    expect(await killLeftoverGroups(0)).toEqual([]);
  });

  it('are not named once the test stopped them, even when the leader went first and the grandchild after', async () => {
    const { leader, grandchild } = await tree();
    // The leader alone: its child lives on in the group, as npm's node would after npm.
    leader.kill('SIGKILL');
    await until(() => leader.exitCode !== null || leader.signalCode !== null, 'the shell to exit');
    expect(alive(grandchild)).toBe(true);
    killGroup(leader, 'SIGTERM');
    await until(() => !alive(grandchild), 'the sleeping child to be gone');
    expect(await killLeftoverGroups(0)).toEqual([]);
  });
});
