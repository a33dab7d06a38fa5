// The CPU a process's threads spent while a load ran, by kind of thread, from Linux's /proc (each
// thread's user and system time, in clock ticks of 10 ms). What a server spends on a request is
// then its threads' time over the requests it answered: it says which thread a difference from a
// floor is on, and it moves less than requests per second do when the machine slows (two runs on
// 2026-11-30: the floor's 5,653 and 5,178 requests/s, 132 and 149 µs a request).
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second (`getconf CLK_TCK`): 100 on Linux on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** The threads of a Node process, by the name the kernel knows each by (/proc/<pid>/task/<tid>/comm). */
export type ThreadKind = 'main' | 'workers' | 'v8' | 'libuv' | 'other';

const kindOf = (name: string): ThreadKind =>
  name === 'MainThread' || name === 'node'
    ? 'main'
    : name === 'WorkerThread'
      ? 'workers'
      : name.startsWith('V8')
        ? 'v8'
        : name.startsWith('libuv')
          ? 'libuv'
          : 'other';

/** Ticks of CPU so far by kind of thread; undefined where there is no /proc (not Linux), or the process is gone. */
export function threadTicks(pid: number): Map<ThreadKind, number> | undefined {
  try {
    const ticks = new Map<ThreadKind, number>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      // The fields after the command's parentheses: utime and stime are the 14th and 15th of the line.
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = kindOf(name);
      ticks.set(kind, (ticks.get(kind) ?? 0) + Number(fields[11]) + Number(fields[12]));
    }
    return ticks;
  } catch {
    return undefined;
  }
}

/** Ticks of CPU of a whole process so far, all its threads; undefined where there is no /proc or the process is gone. */
export function processTicks(pid: number): number | undefined {
  const ticks = threadTicks(pid);
  return ticks && [...ticks.values()].reduce((a, b) => a + b, 0);
}

/**
 * Ticks of CPU spent so far by this process's children that have ended and been waited for
 * (/proc/self/stat's cutime and cstime, the 16th and 17th fields): across a load run by a child
 * (wrk), its own CPU, when no other child ends meanwhile.
 */
export function endedChildrenTicks(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[13]) + Number(fields[14]);
  } catch {
    return undefined;
  }
}

/** Cores' worth of CPU from ticks spent over `seconds` of wall time. */
export const coresOf = (ticks: number, seconds: number): number => ticks / TICKS_PER_SECOND / seconds;

/** Microseconds of CPU per request from ticks spent over `requests`. */
export const microsPerRequest = (ticks: number, requests: number): number => (ticks * 1_000_000) / TICKS_PER_SECOND / requests;

/** Microseconds of CPU per request by kind of thread, summed over loads: each a count of requests and the ticks before and after it. */
export class ThreadTimes {
  private requests = 0;
  private readonly ticks = new Map<ThreadKind, number>();
  private complete = true;

  /** Runs `load`, which answers how many requests it made, and counts the process's threads' time meanwhile. */
  async measure<T>(pid: number | undefined, load: () => Promise<T>, requestsOf: (result: T) => number): Promise<T> {
    const before = pid === undefined ? undefined : threadTicks(pid);
    const result = await load();
    const after = pid === undefined ? undefined : threadTicks(pid);
    if (!before || !after) {
      this.complete = false;
      return result;
    }
    this.requests += requestsOf(result);
    for (const [kind, spent] of after) this.ticks.set(kind, (this.ticks.get(kind) ?? 0) + spent - (before.get(kind) ?? 0));
    return result;
  }

  /** µs per request by kind (only kinds that spent any), and all together; undefined when a load could not be counted. */
  perRequest(): { byKind: Partial<Record<ThreadKind, number>>; total: number } | undefined {
    if (!this.complete || this.requests === 0) return undefined;
    const micros = (ticks: number) => Math.round(microsPerRequest(ticks, this.requests));
    const byKind: Partial<Record<ThreadKind, number>> = {};
    let total = 0;
    for (const [kind, ticks] of this.ticks) {
      if (ticks <= 0) continue;
      byKind[kind] = micros(ticks);
      total += ticks;
    }
    return { byKind, total: micros(total) };
  }
}
