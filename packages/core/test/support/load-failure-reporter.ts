import type { RunnerTestFile as File, RunnerTestCase as Test } from 'vitest';
import type { Reporter, Vitest } from 'vitest/node';

/**
 * Mutation runs only (vitest.mutation.config.ts): a test file that fails to
 * load, or fails before collecting any test, gets one failed test carrying
 * its error. Stryker's vitest runner (9.6.1) builds a mutant's result from
 * the tests it finds, and such a file has none, so a mutant that breaks a
 * module's import would count as survived; with this test it is killed.
 */
export class LoadFailureAsFailedTest implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  // Stryker reads the same file tasks (state.getFiles()) once the run has ended.
  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) markUnloaded(file);
  }
}

/** Adds the failed test to `file` when it failed without any test of its own. */
export function markUnloaded(file: File): void {
  if (file.result?.state !== 'fail' || hasTest(file)) return;
  const test = {
    type: 'test',
    id: `${file.id}_load`,
    name: `${file.name} loads`,
    fullName: `${file.name} loads`,
    mode: 'run',
    file,
    meta: {},
    annotations: [],
    artifacts: [],
    timeout: 0,
    result: { state: 'fail', errors: file.result.errors ?? [{ message: `${file.name} failed to load` }] },
    // Vitest types a test with a context only it can build; nothing reads it once the run is over.
  } as unknown as Test;
  file.tasks.push(test);
}

function hasTest(suite: { tasks: File['tasks'] }): boolean {
  return suite.tasks.some((task) => task.type === 'test' || (task.type === 'suite' && hasTest(task)));
}
