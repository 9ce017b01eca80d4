// Mutation testing of core's rule files: `npm run mutation` (README, "Mutation testing").
// Not part of `npm test` or CI: a full run takes about 17 minutes on two idle cores.

// The rules mutated here run the same on both backends, and every mutant
// reruns its tests: SQLite only (test/support/stores.ts reads TEST_STORES).
// `npm run mutation` at the root (scripts/mutation.mjs) sets both.
process.env.TEST_STORES ??= 'sqlite';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  // Each mutant reruns only the tests that executed it.
  coverageAnalysis: 'perTest',
  // A rerun tests only mutants whose code or covering tests changed since the
  // recorded run; `--force` tests them all. The file is committed: it is the
  // baseline a change is measured against, and a run over some files keeps
  // the other files' results in it.
  incremental: true,
  // Workspace loading in the suites' beforeAll runs much of this code outside
  // any test, which makes those mutants "static": each would rerun every test
  // after a full reload (hours). Such a mutant that tests also execute still
  // runs, against those tests; one only executed while modules load (a table
  // of constants) is reported as ignored.
  ignoreStatic: true,
  incrementalFile: 'mutation/stryker-incremental.json',
  // The rules whose every change a test must notice.
  mutate: [
    'src/series/expand-pattern.ts',
    'src/series/owed.ts',
    'src/availability/*.ts',
    'src/idempotency/idempotency.ts',
    'src/rate-limit/rate-limiter.ts',
    'src/wall-clock.ts',
    'src/availability/adapters/busy-window.ts',
    'src/availability/adapters/ics/feed-expansions.ts',
    'src/webhooks/delivery/delivery-slots.ts',
    'src/webhooks/delivery/receiver-backoff.ts',
  ],
  // Below 95% killed (equivalent mutants marked with a reason), the run fails.
  thresholds: { high: 97, low: 95, break: 95 },
  concurrency: 2,
  // A shared two-core machine is slow; an infinite loop still ends.
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
