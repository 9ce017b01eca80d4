import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

// The committed types are the document's: a change to docs/openapi.json that
// was not followed by `npm run openapi` (which regenerates both) fails here.

const here = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'schedule-client-schema-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('src/schema.ts is what openapi-typescript makes of docs/openapi.json today', () => {
  const fresh = join(scratch, 'schema.ts');
  execFileSync(process.execPath, [join(here, 'scripts/generate.mjs'), fresh]);
  // toBe, not a boolean: a failure shows the lines that differ.
  expect(readFileSync(join(here, 'src/schema.ts'), 'utf8'), 'run `npm run openapi` and commit src/schema.ts').toBe(
    readFileSync(fresh, 'utf8'),
  );
});
