import { describe, expect, it } from 'vitest';
import { POSTGRES_URL } from './support/postgres.js';
import { runServeToExit } from './support/serve.js';

// The database URL's own settings (README, "Running the server": --db) are
// checked before anything is opened: a bad one is a usage error, exit 2.
describe('schedule serve refuses a database URL it cannot use', () => {
  it.each(['0', '101', 'many'])('pool_size=%s: exit 2 before listening, saying what to give', async (value) => {
    const run = await runServeToExit(['--db', `${POSTGRES_URL}?schema=never_made&pool_size=${value}`]);
    expect(run).toMatchObject({ code: 2, listened: false });
    expect(run.stderr).toContain(`error usage: pool_size in the database URL must be a whole number from 1 to 100, not "${value}".`);
  });
});
