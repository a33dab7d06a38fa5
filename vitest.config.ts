// The suite in stages (docs/testing.md). First what needs no process beyond the test's own, in
// parallel (unit, int); then the end-to-end files that run the system inside the test's process;
// then those that start processes, servers or large stores of their own, and the browser's, at
// most half the cores' worth at a time. Stages run one after another (sequence.groupOrder, from
// 1: with one worker vitest runs group 0's files last), so the heavy files never race each other
// for the cores, and a run's length and its result do not depend on which files happened to meet.
import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { matchesGlob } from 'node:path';
import { defineConfig } from 'vitest/config';
import { postgresUnavailable } from './packages/testing/src/postgres-server.ts';
import { WAIT_BOUND_MS } from './packages/testing/src/wait.ts';

/** End-to-end files that start processes (the services, nginx, npm, Redis's server, the bench) or build large stores. */
const STARTS_PROCESSES = [
  'infra/test/hostile/**/*.e2e.test.ts',
  'infra/test/bench.e2e.test.ts',
  'infra/test/collab-restart.e2e.test.ts',
  'infra/test/documented-commands.e2e.test.ts',
  'infra/test/entity-field-drill.e2e.test.ts',
  'infra/test/fixture-stores.e2e.test.ts',
  'infra/test/front-door.e2e.test.ts',
  'infra/test/health.e2e.test.ts',
  'infra/test/load.e2e.test.ts',
  'infra/test/metrics.e2e.test.ts',
  'infra/test/move-to-postgres.e2e.test.ts',
  'infra/test/npm-signals.e2e.test.ts',
  'infra/test/packages.e2e.test.ts',
  'infra/test/postgres-outage.e2e.test.ts',
  'infra/test/processes.e2e.test.ts',
  'infra/test/deadlines.e2e.test.ts',
  'infra/test/projector-kill.e2e.test.ts',
  'infra/test/request-threads.e2e.test.ts',
  'infra/test/restart.e2e.test.ts',
  'infra/test/revocation.e2e.test.ts',
  'infra/test/scale-out.e2e.test.ts',
  'infra/test/seed.e2e.test.ts',
  'infra/test/shutdown.e2e.test.ts',
  'infra/test/split-postgres.e2e.test.ts',
  'infra/test/start-refusals.e2e.test.ts',
  'infra/test/store-locks.e2e.test.ts',
  'infra/test/tracing-export.e2e.test.ts',
  'infra/test/kafka-publisher.e2e.test.ts',
];
const BROWSER = ['**/*.browser.e2e.test.ts'];
const WHERE = ['*/src/**/', '*/test/**/', 'packages/*/src/**/', 'packages/*/test/**/'];
const under = (suffix: string) => WHERE.map((folder) => `${folder}*${suffix}`);

/**
 * The end-to-end files that run the whole system in the test's process (startFullApp), which run a
 * second time with every app on a throwaway PostgreSQL (EVENTIDE_TEST_ENGINE, infra/test/full-app.ts).
 */
const IN_PROCESS = globSync(under('.e2e.test.ts')).filter(
  (file) =>
    ![...STARTS_PROCESSES, ...BROWSER].some((pattern) => matchesGlob(file, pattern)) &&
    readFileSync(file, 'utf8').includes('startFullApp('),
);
const noPostgres = postgresUnavailable();
if (noPostgres) console.warn(`SKIPPED: the end-to-end suite on PostgreSQL (the e2e-postgres project): ${noPostgres}`);

/** Files that start processes each keep a core or two busy: at most half the cores' worth at once. */
const HEAVY_WORKERS = Math.max(1, Math.floor(availableParallelism() / 2));

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    setupFiles: [
      // Every file's processes stopped and temporary files removed when it ends (the file says how).
      'infra/test/setup/leftovers.ts',
      // Every reply a test client gets is checked against /openapi.json (the file says how).
      'infra/test/setup/openapi-conformance.ts',
    ],
    globalSetup: ['infra/test/setup/run-bounds.ts'],
    reporters: ['default', './infra/test/setup/time-report.ts'],
    // Bounds for a machine ten times slower than a quiet one, not a deadline: a test waits for
    // conditions, and one that passes never comes near these.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: WAIT_BOUND_MS } },
    teardownTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: under('.unit.test.ts'), sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'int', include: under('.int.test.ts'), sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: under('.e2e.test.ts'),
          exclude: ['**/node_modules/**', ...STARTS_PROCESSES, ...BROWSER],
          sequence: { groupOrder: 2 },
        },
      },
      ...(noPostgres
        ? []
        : [
            {
              extends: true,
              test: { name: 'e2e-postgres', include: IN_PROCESS, env: { EVENTIDE_TEST_ENGINE: 'postgres' }, sequence: { groupOrder: 2 } },
            },
          ]),
      {
        extends: true,
        test: {
          name: 'processes',
          include: STARTS_PROCESSES,
          exclude: ['**/node_modules/**', ...BROWSER],
          maxWorkers: HEAVY_WORKERS,
          sequence: { groupOrder: 3 },
        },
      },
      { extends: true, test: { name: 'browser', include: BROWSER, maxWorkers: HEAVY_WORKERS, sequence: { groupOrder: 4 } } },
    ],
  },
});
