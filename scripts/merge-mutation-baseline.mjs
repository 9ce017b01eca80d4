// `npm run mutation:merge -- <branch>`: after `git merge <branch>` conflicts in the mutation baseline
// (packages/core/mutation/stryker-incremental.json), writes a baseline with each source file's results
// from the side that measured it (README, "Mutation testing"). Run it from the merge, then `git add` the file.
//
// Stryker's report numbers tests from 0 in every run, and a mutant names the tests that covered and
// killed it by those numbers: results from two runs side by side need their numbers kept apart, or a
// mutant would point at another run's tests. Each side's numbers get a prefix.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const root = join(import.meta.dirname, '..');
const BASELINE = 'packages/core/mutation/stryker-incremental.json';

function git(...args) {
  const run = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout;
}

/** The baseline as committed at `ref` (`:2` is our side of a conflicted merge), or an empty one. */
function baselineAt(ref) {
  const shown = spawnSync('git', ['show', `${ref}:${BASELINE}`], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  return shown.status === 0 ? JSON.parse(shown.stdout) : { files: {}, testFiles: {} };
}

/** The report with every test number prefixed, in its tests and in the mutants that name them. */
function prefixed(report, prefix) {
  const ids = (list) => list?.map((id) => `${prefix}${id}`);
  const files = Object.fromEntries(
    Object.entries(report.files).map(([name, file]) => [
      name,
      { ...file, mutants: file.mutants.map((m) => ({ ...m, coveredBy: ids(m.coveredBy), killedBy: ids(m.killedBy) })) },
    ]),
  );
  const testFiles = Object.fromEntries(
    Object.entries(report.testFiles).map(([name, file]) => [
      name,
      { ...file, tests: file.tests.map((t) => ({ ...t, id: `${prefix}${t.id}` })) },
    ]),
  );
  return { ...report, files, testFiles };
}

function main() {
  const branch = process.argv[2];
  if (!branch) throw new Error('usage: npm run mutation:merge -- <the branch being merged>');
  const base = baselineAt(git('merge-base', 'HEAD', branch).trim());
  const ours = prefixed(baselineAt('HEAD'), 'o');
  const theirs = prefixed(baselineAt(branch), 't');
  const files = { ...ours.files };
  const taken = [];
  const rerun = [];
  for (const [name, file] of Object.entries(theirs.files)) {
    const before = base.files[name];
    // Stryker writes every file's results back on each run, so a file can differ from the base
    // without being measured again; the results that count are those measured on the code as merged.
    if (sameResults(file, before)) continue;
    const mine = ours.files[name];
    if (mine === undefined || sameResults(mine, before)) {
      files[name] = file;
      taken.push(name);
      continue;
    }
    const merged = sourceOf(name);
    const theirsFit = file.source === merged;
    if (theirsFit && mine.source !== merged) {
      files[name] = file;
      taken.push(name);
    } else if (theirsFit === (mine.source === merged) && !sameResults(file, mine)) {
      rerun.push(name);
    }
  }
  // Every test either side's mutants name; a test file's source is the newer side's, so a changed test reruns.
  const testFiles = { ...ours.testFiles };
  for (const [name, file] of Object.entries(theirs.testFiles)) {
    testFiles[name] = name in testFiles ? { source: file.source, tests: [...testFiles[name].tests, ...file.tests] } : file;
  }
  writeFileSync(join(root, BASELINE), `${JSON.stringify({ ...ours, files, testFiles }, null, 2)}\n`);
  console.log(`mutation:merge: ${taken.length} file(s) from ${branch}${taken.length ? `: ${taken.join(', ')}` : ''}`);
  if (rerun.length > 0) {
    console.log(
      `mutation:merge: both sides measured these on the same code, or neither on the merged code; ours kept, rerun them: npm run mutation -- --force ${rerun.join(' ')}`,
    );
  }
}

/** Whether two records of a file hold the same results for the same source (test numbers differ between runs that found the same). */
function sameResults(a, b) {
  const results = (file) => file && { source: file.source, mutants: file.mutants.map(({ coveredBy, killedBy, ...rest }) => rest) };
  return isDeepStrictEqual(results(a), results(b));
}

/** A source file of packages/core as the merge left it. */
function sourceOf(name) {
  try {
    return readFileSync(join(root, 'packages/core', name), 'utf8');
  } catch {
    return undefined;
  }
}

try {
  main();
} catch (error) {
  console.error(`mutation:merge: ${error.message}`);
  process.exitCode = 2;
}
