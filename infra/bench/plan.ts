// What `npm run bench` measures and for how long. The full run records every figure in
// docs/benchmarks.md in about 9 minutes on a two-core machine (559 s on 2026-11-27); `--quick` runs every section on
// tiny data for a second or so each, as a check that the harness works (npm test runs it), and
// its figures mean nothing. Environment variables adjust the full run.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ABUSE_ROUND, type AbuseSize } from '../test/hostile/abuse.ts';

export interface BenchPlan {
  quick: boolean;
  /** The work of the in-process sections, against their full size (BENCH_SCALE). */
  scale: number;
  /** Each load of a server outside the growth section (BENCH_SECONDS). */
  seconds: number;
  /** Store sizes in events (BENCH_GROWTH_EVENTS), each load's seconds (BENCH_GROWTH_SECONDS) and the rounds of loads (BENCH_GROWTH_ROUNDS). */
  growth: { sizes: number[]; seconds: number; rounds: number };
  /** Starts of `npm start` on an empty store, and how long each stands idle before its memory is read. */
  startup: { starts: number; idleSeconds: number };
  /** How long the process stands idle before its memory is read, rounds of abuse, each round's size, and how long it then stands idle before its memory is read again. */
  memory: { idleSeconds: number; rounds: number; size: AbuseSize; settleSeconds: number };
  /** Where the report is written: none, printed only. */
  out: string | undefined;
}

export const REPORT = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
export const USAGE = 'usage: npm run bench [-- --quick] [-- --out <file>]';

export function benchPlan(args: string[], env: NodeJS.ProcessEnv): BenchPlan {
  const { values } = parseArgs({ args, options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } } });
  const number = (name: string, fallback: number) => {
    const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
    if (!(value > 0)) throw new Error(`${name} must be a number above 0, not ${JSON.stringify(env[name])}`);
    return value;
  };
  // autocannon runs whole seconds: asked for 1.5 it loads for 2.
  const whole = (name: string, fallback: number) => {
    const value = number(name, fallback);
    if (!Number.isInteger(value))
      throw new Error(`${name} must be a whole number (of seconds, or rounds), not ${JSON.stringify(env[name])}`);
    return value;
  };
  if (values.quick) {
    return {
      quick: true,
      scale: 0.02,
      seconds: 1,
      growth: { sizes: [300, 1500], seconds: 1, rounds: 1 },
      startup: { starts: 1, idleSeconds: 1 },
      memory: { idleSeconds: 1, rounds: 1, size: { requests: 200, signIns: 4, editors: 2, ops: 10 }, settleSeconds: 1 },
      out: values.out,
    };
  }
  const sizes = (env.BENCH_GROWTH_EVENTS ?? '1000,1000000').split(',').map(Number);
  if (sizes.length < 2 || sizes.some((size, i) => !Number.isSafeInteger(size) || size < 1 || (i > 0 && size <= sizes[i - 1]!)))
    throw new Error(`BENCH_GROWTH_EVENTS must be two or more growing numbers of events, not ${JSON.stringify(env.BENCH_GROWTH_EVENTS)}`);
  return {
    quick: false,
    scale: number('BENCH_SCALE', 1),
    seconds: whole('BENCH_SECONDS', 5),
    growth: { sizes, seconds: whole('BENCH_GROWTH_SECONDS', 1), rounds: whole('BENCH_GROWTH_ROUNDS', 3) },
    startup: { starts: 3, idleSeconds: 3 },
    memory: { idleSeconds: 5, rounds: 2, size: ABUSE_ROUND, settleSeconds: 60 },
    out: values.out ?? REPORT,
  };
}
