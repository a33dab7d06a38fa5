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
import { processTable } from '@eventide/testing/processes.ts';

export const RUN_MARK = 'EVENTIDE_TEST_RUN';
export const RUN_TMP = 'EVENTIDE_TEST_TMP';

interface Marked {
  pid: number;
  /** The leader of a group of its own (spawnInGroup's): killed with its group, as nginx's workers. */
  leadsGroup: boolean;
  command: string;
}

/**
 * The processes the run started, with their command lines: those whose environment carries
 * `mark`, or whose command line names the run's folder `root` (nginx writes its process title
 * over its environment). Not vitest's own: its workers and watchdog are this process's children.
 */
function processesMarked(mark: string, root: string): Marked[] {
  const found: Marked[] = [];
  for (const { pid, parent, group } of processTable()) {
    if (pid === process.pid || parent === process.pid) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
      const marked = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${RUN_MARK}=${mark}`);
      if (marked || command.includes(root)) found.push({ pid, leadsGroup: group === pid, command: command.slice(0, 200) });
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return found;
}

function kill({ pid, leadsGroup }: Marked): void {
  try {
    process.kill(leadsGroup ? -pid : pid, 'SIGKILL');
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
    for (const marked of processesMarked(mark, root)) kill(marked);
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    // A worker's last groups may still be dying of the SIGKILL it sent as it exited.
    const deadline = Date.now() + 10_000;
    let running = processesMarked(mark, root);
    while (running.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      running = processesMarked(mark, root);
    }
    for (const marked of running) kill(marked);
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
