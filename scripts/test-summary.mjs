// After `npm test`: sums the JSON reports that each package's vitest run wrote, and prints one
// closing line in the plain `N passed, N failed` form CI reads, after the count of answers
// the black-box tests checked against the OpenAPI document.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '.test-results');
if (process.argv.includes('--clean')) {
  // Before a run: no report of an earlier run may count.
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of existsSync(dir) ? readdirSync(dir) : []) {
  if (!file.endsWith('.json')) continue;
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
// The black-box answers checked against docs/openapi.json (test/support/openapi-contract.ts).
const contractDir = join(dir, 'openapi');
let validated = 0;
let outside = 0;
for (const file of existsSync(contractDir) ? readdirSync(contractDir) : []) {
  for (const line of readFileSync(join(contractDir, file), 'utf8').split('\n').filter(Boolean)) {
    const counts = JSON.parse(line);
    validated += counts.validated;
    outside += counts.skipped;
  }
}
process.stdout.write(`openapi: ${validated} responses validated against docs/openapi.json (${outside} of /metrics and /mcp not in it)\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
