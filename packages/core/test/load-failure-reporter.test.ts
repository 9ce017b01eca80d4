import type { RunnerTestFile } from 'vitest';
import { describe, expect, it } from 'vitest';
import { markUnloaded } from './support/load-failure-reporter.js';

// Mutation testing's reporter (vitest.mutation.config.ts): Stryker scores a
// mutant from the tests it finds, so a test file that fails to load must
// show one failed test, or a mutant that breaks an import would survive.

const fileOf = (state: 'pass' | 'fail', tasks: object[] = []) =>
  ({
    id: 'f1',
    name: 'test/x.test.ts',
    type: 'suite',
    tasks,
    result: { state, errors: state === 'fail' ? [{ message: 'Cannot find module ./gone.js' }] : undefined },
  }) as unknown as RunnerTestFile;

describe('the load failure reporter', () => {
  it('gives a file that failed without any test one failed test carrying its error', () => {
    const file = fileOf('fail');
    markUnloaded(file);
    expect(file.tasks).toMatchObject([
      {
        type: 'test',
        name: 'test/x.test.ts loads',
        mode: 'run',
        result: { state: 'fail', errors: [{ message: 'Cannot find module ./gone.js' }] },
      },
    ]);
    expect(file.tasks[0]?.file).toBe(file);
  });

  it('leaves a file that has tests, failed or not, and a file that passed, as they are', () => {
    const failedTest = { type: 'test', name: 't', result: { state: 'fail' } };
    const withTests = fileOf('fail', [{ type: 'suite', name: 's', tasks: [failedTest] }]);
    markUnloaded(withTests);
    expect(withTests.tasks).toHaveLength(1);
    const passed = fileOf('pass');
    markUnloaded(passed);
    expect(passed.tasks).toEqual([]);
  });
});
