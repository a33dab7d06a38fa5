// Every process a test starts, it stops. Each is started as the leader of a process group of its
// own, so that what it starts in turn (npm's shell and node, nginx's workers) goes with it, and
// each group is remembered until its test file ends. A test file that ends with a group running
// fails, naming it (setup/leftovers.ts), and the groups are killed when the test worker exits,
// however its suites ended: a failed beforeAll used to leave the split processes running.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// One registry per worker, however many times a file's isolation imports this module anew.
const REGISTRY = Symbol.for('eventide.testing.process-groups');
/** Each group's leader's pid (the group's id), with what was started: for the message that names a group left running. */
const holder = globalThis as { [REGISTRY]?: Map<number, string> };
const groups: Map<number, string> =
  holder[REGISTRY] ??
  (() => {
    const created = new Map<number, string>();
    holder[REGISTRY] = created;
    // The worker's own end, whether its suites passed or not: nothing it started outlives it.
    // process.kill is synchronous, as an 'exit' listener must be.
    process.once('exit', () => {
      for (const pgid of created.keys()) signalGroup(pgid, 'SIGKILL');
    });
    return created;
  })();

/** Sends `signal` to every process of the group, if any is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is empty
  }
}

/** A process the kernel lists now (/proc/<pid>/stat). */
export interface ProcessEntry {
  pid: number;
  /** R, S, D, Z (a zombie: ended, not yet reaped), … */
  state: string;
  parent: number;
  group: number;
}

/** Every process the kernel lists now, read once from /proc. */
export function processTable(): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      // After the command's closing parenthesis (the command may hold spaces): state, parent, group.
      const [state = '', parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({ pid: Number(name), state, parent: Number(parent), group: Number(group) });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/**
 * The groups with a process that still runs. Not `kill(-pgid, 0)`: that also finds zombies, and
 * a child whose parent died waits as one until the container's init reaps it, which some never do.
 */
function livingGroups(): Set<number> {
  return new Set(processTable().flatMap((entry) => (entry.state === 'Z' ? [] : [entry.group])));
}

/**
 * `child_process.spawn` as the leader of a new process group, remembered until the test file
 * ends. The child's stdio and events are spawn's own.
 */
export function spawnInGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  // A failed spawn (ENOENT) has no pid and starts no group; its 'error' event says so.
  if (child.pid !== undefined) groups.set(child.pid, [command, ...args].join(' ').slice(0, 200));
  return child;
}

/** Sends `signal` to the whole group `child` leads (`child.kill` reaches the leader only). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid !== undefined) signalGroup(child.pid, signal);
}

/**
 * The groups still running, after giving each up to `graceMs` to finish what it was asked to
 * (a SIGTERM sent just before the suite ended). Those left are killed and named, and every group
 * is forgotten.
 */
export async function killLeftoverGroups(graceMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  const alive = () => {
    const living = livingGroups();
    return [...groups].filter(([pgid]) => living.has(pgid));
  };
  while (alive().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const left = alive();
  for (const [pgid] of left) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  return left.map(([pgid, command]) => `${command} (process group ${pgid})`);
}
