import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { PUBLIC_DEMO_SECRETS } from '../src/demo-tokens.js';

it('the public demo secrets are exactly the tokens of demo/workspace.json', () => {
  const demo = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../demo/workspace.json'), 'utf8'));
  expect([...PUBLIC_DEMO_SECRETS].sort()).toEqual(demo.tokens.map((t: { secret: string }) => t.secret).sort());
});
