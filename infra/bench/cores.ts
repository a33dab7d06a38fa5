// The machine's cores as the threads section needs them: how fast each one is, and a way to give a
// server one core and its load generator another. The cores of this machine are not equal, and
// which one is slower changes over the minutes: a fixed loop of arithmetic, pinned to each core in
// turn, took 174-176 ns an iteration on one and 243-249 on the other on 2026-12-01 at 12:10, and
// the other way round at 12:15. A figure of CPU per request then depends on which core the kernel
// happened to put the server on, and while one core is the slower no server, ours or the floor,
// can answer twice on two what it does on one (the loop on both at once gave 1.48-1.95 of one).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { availableParallelism } from 'node:os';

/** Where a server and its load generator are pinned, as taskset's lists. */
export interface Pinning {
  server: string;
  generator: string;
}

/**
 * A core for the server (the last) and another for wrk (the first), or why the cores cannot be
 * shared out: one core, or no taskset (util-linux) to pin with.
 */
export function pinning(): Pinning | { unavailable: string } {
  const cores = availableParallelism();
  if (cores < 2) return { unavailable: 'this machine has one core: a server and wrk cannot each have one' };
  if (spawnSync('taskset', ['--version']).error) return { unavailable: 'taskset (util-linux) is not installed to pin them with' };
  return { server: String(cores - 1), generator: '0' };
}

/** Pins every thread of `pid` to `cpus` (taskset's list); threads it starts later inherit it. */
export function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['--all-tasks', '--pid', '--cpu-list', cpus, String(pid)], { stdio: 'ignore' });
}

/** Lets every thread of `pid` run on any core again. */
export function unpin(pid: number): void {
  pin(pid, `0-${availableParallelism() - 1}`);
}

/**
 * A loop of integer arithmetic that prints the nanoseconds of its thread's CPU an iteration over
 * `ms` (its argument), after a fifth of that to let V8 compile it. CPU time, not wall time, so
 * that what else runs on its core meanwhile does not count.
 */
const LOOP = `
const until = (ms) => { const end = Date.now() + ms; let sink = 0, n = 0;
  while (Date.now() < end) { for (let k = 0; k < 1000; k++) { let x = k; for (let j = 0; j < 50; j++) x = (x * 1103515245 + 12345) | 0; sink += x & 1; } n += 1000; }
  return { n, sink }; };
const ms = Number(process.argv[1]);
until(ms / 5);
const before = process.threadCpuUsage();
const { n } = until(ms);
const spent = process.threadCpuUsage(before);
console.log(((spent.user + spent.system) * 1000) / n);
`;

/** LOOP as its own process, pinned to `core`. */
const loopOn = async (core: number, ms: number): Promise<number> => {
  const { stdout } = await promisify(execFile)('taskset', ['--cpu-list', String(core), process.execPath, '-e', LOOP, String(ms)], {
    encoding: 'utf8',
  });
  return Number(stdout.trim());
};

/** What the cores do alone and all at once: the most any server could scale here, its load generator aside. */
export interface CoreSpeeds {
  /** Each core's nanoseconds an iteration of the loop with the others idle (the least of the rounds). */
  alone: number[];
  /** Each core's with every core running the loop at once (the median of the rounds). */
  together: number[];
  /** Iterations a second of every core at once ÷ of the fastest alone: what N share-nothing loops gave over one. */
  scaling: number;
}

/** The loop on each core alone in turn, then on every core at once, `rounds` times; undefined where the cores cannot be pinned. */
export async function coreSpeeds(ms = 1000, rounds = 2): Promise<CoreSpeeds | undefined> {
  if ('unavailable' in pinning()) return undefined;
  const cores = Array.from({ length: availableParallelism() }, (_, core) => core);
  const alone = cores.map(() => [] as number[]);
  const together = cores.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const core of cores) alone[core]!.push(await loopOn(core, ms));
    for (const [core, ns] of (await Promise.all(cores.map((core) => loopOn(core, ms)))).entries()) together[core]!.push(ns);
  }
  const least = alone.map((runs) => Math.min(...runs));
  const median = together.map((runs) => runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]!);
  const fastest = Math.min(...least);
  return { alone: least, together: median, scaling: median.reduce((sum, ns) => sum + fastest / ns, 0) };
}
