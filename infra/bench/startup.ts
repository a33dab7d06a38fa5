// Start-up as a user meets it: `npm start`'s process (its own flags, its threads as their defaults
// have them) on an empty data directory, timed from spawning it to the first 200 of GET /health, and
// its resident memory once it has stood idle; once more on one HTTP thread, for what the request
// threads cost. (On an empty store the followers' thread waits for the first event, so it costs
// nothing idle.) Each start is a new process on a new directory: the first start
// of a machine also builds what later ones find made (none is kept between starts here).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ENTRY, residentMiB, spawnService } from '../test/process.ts';
import { p } from './percentile.ts';

export interface StartupResults {
  starts: number;
  idleSeconds: number;
  /** Milliseconds from spawn to the first 200, median and worst. */
  firstOk: { p50: number; max: number };
  /** Resident memory after `idleSeconds` idle, MiB: median and worst; and the same with HTTP_THREADS=1. */
  rssMiB: { p50: number; max: number };
  rssOneThreadMiB: number;
  /** How many threads answer HTTP by default here (the cores). */
  threads: number;
}

async function firstOk(url: string, exited: () => boolean, started: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (exited()) throw new Error('the process exited before it answered');
    if (performance.now() - started > 60_000) throw new Error('no 200 within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function startOnce(dir: string, env: Record<string, string>, idleSeconds: number): Promise<{ ms: number; rss: number }> {
  const dataDir = mkdtempSync(join(dir, 'start-'));
  try {
    const started = performance.now();
    const service = await spawnService({ DATA_DIR: dataDir, ...env }, ENTRY.all);
    try {
      const ms = await firstOk(service.url, () => service.exitCode() !== undefined, started);
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
      return { ms, rss: residentMiB(service.child.pid!) };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchStartup(dir: string, starts: number, idleSeconds: number): Promise<StartupResults> {
  const runs: Array<{ ms: number; rss: number }> = [];
  for (let i = 0; i < starts; i++) runs.push(await startOnce(dir, {}, idleSeconds));
  const oneThread = await startOnce(dir, { HTTP_THREADS: '1' }, idleSeconds);
  const times = runs.map((run) => run.ms);
  const rss = runs.map((run) => run.rss);
  return {
    starts,
    idleSeconds,
    firstOk: { p50: p(times, 0.5), max: Math.max(...times) },
    rssMiB: { p50: p(rss, 0.5), max: Math.max(...rss) },
    rssOneThreadMiB: oneThread.rss,
    threads: availableParallelism(),
  };
}
