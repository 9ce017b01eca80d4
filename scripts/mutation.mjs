// `npm run mutation [-- --since <commit>] [-- <core file>...] [--tests <glob,...>] [--stores sqlite] [--force] [--concurrency <n>]`:
// Stryker over some files of packages/core, on SQLite and PostgreSQL (README, "Mutation testing").
// Without files, the core source files changed since <commit> (default: where this branch left main).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const core = join(root, 'packages', 'core');

function git(...args) {
  const run = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout.split('\n').filter(Boolean);
}

function parse(argv) {
  const options = { since: undefined, files: [], tests: 'all', stores: 'sqlite,postgres', stryker: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--since' || arg === '--tests' || arg === '--stores' || arg === '--concurrency') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--since') options.since = value;
      else if (arg === '--tests') options.tests = value;
      else if (arg === '--stores') options.stores = value;
      else options.stryker.push(arg, value);
    } else if (arg === '--force') options.stryker.push(arg);
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.files.push(arg);
  }
  if (options.since !== undefined && options.files.length > 0) throw new Error('give --since or files, not both');
  return options;
}

/** A mutable file of core: TypeScript source, not a test or a declaration. Paths relative to packages/core. */
function isCoreSource(path) {
  return path.startsWith('src/') && path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts');
}

/** Core source files changed since `since`, committed or not, that still exist. */
function changedSince(since) {
  const paths = [
    ...git('diff', '--name-only', since, '--', 'packages/core/src'),
    ...git('ls-files', '--others', '--exclude-standard', '--', 'packages/core/src'),
  ];
  return [...new Set(paths)].filter((path) => existsSync(join(root, path))).map((path) => relative(core, join(root, path)));
}

function main() {
  const options = parse(process.argv.slice(2));
  const files =
    options.files.length > 0
      ? // Given from the root, from packages/core, or absolute.
        options.files.map((file) => relative(core, existsSync(resolve(file)) ? resolve(file) : join(core, file)))
      : changedSince(options.since ?? git('merge-base', 'HEAD', 'main')[0]);
  const refused = files.filter((file) => !isCoreSource(file) || !existsSync(join(core, file)));
  if (options.files.length > 0 && refused.length > 0) throw new Error(`not a source file of packages/core: ${refused.join(', ')}`);
  const mutate = files.filter((file) => !refused.includes(file)).sort();
  if (mutate.length === 0) {
    console.log('mutation: no core source file to mutate');
    return 0;
  }
  console.log(`mutation: ${mutate.join(', ')}`);
  const run = spawnSync('npx', ['stryker', 'run', '--mutate', mutate.join(','), ...options.stryker], {
    cwd: core,
    stdio: 'inherit',
    // Both backends unless `--stores` says otherwise (a PostgreSQL-only mutant: an empty `in ()`, a row lock);
    // every core test that imports the files, or only the test files `--tests` names (globs relative to packages/core).
    env: { ...process.env, TEST_STORES: options.stores, MUTATION_TESTS: options.tests },
  });
  return run.status ?? 1;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(`mutation: ${error.message}`);
  process.exitCode = 2;
}
