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

  // Issue 29 item 13: this said "database migration  failed: error: database … does not exist".
  it('a PostgreSQL database that does not exist: exit 2 before listening, naming it and saying so', async () => {
    const url = new URL(POSTGRES_URL);
    url.pathname = '/schedule_no_such_database';
    const run = await runServeToExit(['--db', url.toString()]);
    expect(run).toMatchObject({ code: 2, listened: false });
    expect(run.stderr).toContain(
      `error usage: The PostgreSQL database "schedule_no_such_database" does not exist on ${url.host}. Create it (createdb schedule_no_such_database) or name another in the URL.`,
    );
    expect(run.stderr).not.toContain('migration');
  });
});
