// What a whole `vitest run` leaves behind: nothing. Every file's temporary folder lives under one
// folder of the run's (TMPDIR, so that what the tests and the processes they start create with
// os.tmpdir() lands there too), and every process the run starts carries the run's mark in its
// environment. When the run ends, a process still marked, or a folder of the run's still there,
// fails the run by name, after it is killed or removed. This catches what a test file's own check
// (leftovers.ts) cannot: a worker that was killed, a process started outside any spawn helper.
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RUN_MARK = 'EVENTIDE_TEST_RUN';
export const RUN_TMP = 'EVENTIDE_TEST_TMP';

/** The process's parent, from /proc/<pid>/stat (the field after the command's closing parenthesis and the state). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * The processes whose environment carries `mark`, with their command lines: what the tests
 * started, not vitest's own (its workers and watchdog are this process's children).
 */
function processesMarked(mark: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${RUN_MARK}=${mark}`)) continue;
      if (parentOf(pid) === process.pid) continue;
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 200) });
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return found;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}

export default function setup(): () => Promise<void> {
  const outside = tmpdir();
  const root = mkdtempSync(join(outside, 'eventide-run-'));
  // Passable by others, as each file's folder below it (leftovers.ts says why).
  chmodSync(root, 0o711);
  const mark = randomUUID();
  const strayBefore = new Set(readdirSync(outside));
  process.env[RUN_MARK] = mark;
  process.env[RUN_TMP] = root;
  // A run stopped short (Ctrl-C) ends without its teardown: what it started goes all the same.
  const onExit = () => {
    for (const { pid } of processesMarked(mark)) kill(pid);
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    // A worker's last groups may still be dying of the SIGKILL it sent as it exited.
    const deadline = Date.now() + 10_000;
    let running = processesMarked(mark);
    while (running.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      running = processesMarked(mark);
    }
    for (const { pid } of running) kill(pid);
    // A file that was skipped whole ran no hooks to remove its folder, which it left empty.
    const folders = readdirSync(root).filter((name) => readdirSync(join(root, name)).length > 0);
    rmSync(root, { recursive: true, force: true });
    // Folders named as ours that appeared beside the run's meanwhile: written past TMPDIR, or another run's.
    const strays = readdirSync(outside).filter(
      (name) => name.startsWith('eventide-') && !strayBefore.has(name) && !name.startsWith('eventide-run-'),
    );
    const problems = [
      ...running.map(({ pid, command }) => `process ${pid} still running: ${command}`),
      ...folders.map((name) => `temporary folder left behind: ${join(root, name)}`),
    ];
    if (problems.length > 0) throw new Error(`the test run left things behind (now killed and removed):\n${problems.join('\n')}`);
    if (strays.length > 0)
      console.warn(`temporary folders that appeared outside the run's TMPDIR during the run (another run's?): ${strays.join(', ')}`);
  };
}
