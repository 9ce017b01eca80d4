import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, runCli, success } from './support/cli-run.js';
import { BLOCKER_UID, SERIES_SECRETS, SERIES_USERS, STARTS_ON, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';
import { SCHEDULE_BIN, writeWorkspace } from './support/serve.js';

// Issue 6, "Output" and "Fast start": --version, --help on every command
// with its examples, usage errors as `error usage: …` with exit 2, piped
// output that never prompts and never colours, --verbose, and how the mode
// is chosen (flags or the environment). Every run in these suites is also
// checked for ANSI escapes by runCli itself.

const ORA = SERIES_SECRETS.ora;
let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
});

afterAll(async () => {
  await modes?.stop();
});

/** Runs `work` over `items`, at most `width` at a time (each is a process start). */
async function pooled<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

/** Every command of issue 6 that exists, and whether its help shows an example. */
const COMMANDS: { path: string; example: boolean; data: boolean }[] = [
  { path: 'serve', example: true, data: false },
  { path: 'mcp', example: true, data: false },
  { path: 'bookings list', example: true, data: true },
  { path: 'bookings get', example: true, data: true },
  { path: 'bookings create', example: true, data: true },
  { path: 'bookings cancel', example: false, data: true },
  { path: 'bookings reschedule', example: false, data: true },
  { path: 'bookings update', example: true, data: true },
  { path: 'series list', example: true, data: true },
  { path: 'series get', example: false, data: true },
  { path: 'series create', example: true, data: true },
  { path: 'series pause', example: false, data: true },
  { path: 'series resume', example: false, data: true },
  { path: 'series end', example: false, data: true },
  { path: 'series move', example: false, data: true },
  { path: 'series update', example: true, data: true },
  { path: 'slots list', example: true, data: true },
  { path: 'slots check', example: true, data: true },
  { path: 'whoami', example: false, data: true },
  { path: 'event-types list', example: false, data: true },
  { path: 'tokens create', example: true, data: true },
  { path: 'tokens list', example: false, data: true },
  { path: 'tokens revoke', example: false, data: true },
  { path: 'passwords set', example: true, data: true },
  { path: 'passwords clear', example: true, data: true },
  { path: 'oauth-clients create', example: true, data: true },
  { path: 'oauth-clients list', example: true, data: true },
  { path: 'oauth-clients revoke', example: true, data: true },
  { path: 'init', example: true, data: false },
  { path: 'completion', example: true, data: false },
];
/** Commands on the local database only: --help lists neither --api-url nor --token (issue 11). */
const LOCAL = new Set([
  'tokens create',
  'tokens list',
  'tokens revoke',
  'passwords set',
  'passwords clear',
  'oauth-clients create',
  'oauth-clients list',
  'oauth-clients revoke',
]);
const GROUPS = ['bookings', 'series', 'slots', 'event-types', 'tokens', 'passwords', 'oauth-clients'];

describe('--version and --help', () => {
  it('schedule --version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(SCHEDULE_BIN.replace(/dist\/bin\.js$/, 'package.json'), 'utf8')) as { version: string };
    expect(await runCli(['--version'])).toEqual(success(`${version}\n`));
  });

  it('schedule --help lists the commands and the exit codes, exit 0', async () => {
    const run = await runCli(['--help']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.startsWith('Usage: schedule [options] [command]\n')).toBe(true);
    for (const name of [
      'serve',
      'mcp',
      'bookings',
      'series',
      'slots',
      'whoami',
      'event-types',
      'tokens',
      'passwords',
      'oauth-clients',
      'init',
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      'Exit codes: 0 ok, 1 failure, 2 usage or invalid input, 3 not found, 4 not allowed, 5 conflict, 6 try again later.',
    );
  });

  it('--help of every command and group exits 0 on stdout; data commands list the common options; an example names the command', async () => {
    const paths = [...GROUPS.map((path) => ({ path, example: false, data: false })), ...COMMANDS];
    const runs = await pooled(paths, 4, (c) => runCli([...c.path.split(' '), '--help']));
    paths.forEach((c, i) => {
      const run = runs[i]!;
      expect(run, c.path).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout, c.path).toMatch(new RegExp(`^Usage: schedule ${c.path} `));
      if (c.data) {
        for (const option of ['--db <url>', '--api-url <url>', '--token <secret>', '--workspace <file>', '--json', '--verbose']) {
          const remoteOnly = option === '--api-url <url>' || option === '--token <secret>';
          if (LOCAL.has(c.path) && remoteOnly) expect(run.stdout, `${c.path} --help hides ${option}`).not.toContain(`  ${option}`);
          else expect(run.stdout, `${c.path} --help names ${option}`).toContain(`  ${option}`);
        }
      }
      if (c.example) {
        const examples = run.stdout.split(/\nExamples?:\n/)[1];
        expect(examples, `${c.path} --help shows an example`).toMatch(new RegExp(`^  (\\S+=\\S+ )*schedule ${c.path}\\b`, 'm'));
      }
    });
  });
});

describe('usage errors: exit 2, `error usage: …` on stderr, nothing on stdout', () => {
  const usage = (message: string): CliRun => ({ code: 2, stdout: '', stderr: `error usage: ${message}\n(run with --help for usage)\n` });

  it('an unknown option, an unknown command, a missing argument', async () => {
    const [option, command, argument] = await Promise.all([
      runCli(['bookings', 'list', '--bogus']),
      runCli(['bogus']),
      runCli(['bookings', 'get']),
    ]);
    expect(option).toEqual(usage("unknown option '--bogus'"));
    expect(command).toEqual(usage("unknown command 'bogus'"));
    expect(argument).toEqual(usage("missing required argument 'uid'"));
  });

  it('a group without its subcommand shows its usage on stderr and exits 2', async () => {
    const run = await runCli(['bookings']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.startsWith('Usage: schedule bookings [options] [command]\n')).toBe(true);
  });

  it('piped, a command that is interactive on a terminal never prompts: with stdin open, series create and bookings create without flags exit 2 naming the first missing flag', async () => {
    const [series, booking] = await Promise.all([
      runCli(['series', 'create'], { stdinOpen: true, env: { SCHEDULE_TOKEN: ORA } }),
      runCli(['bookings', 'create'], { stdinOpen: true, env: { SCHEDULE_TOKEN: ORA } }),
    ]);
    expect(series).toEqual(usage("required option '--host <username-or-id>' not specified"));
    expect(booking).toEqual(usage("required option '--start <iso>' not specified"));
  });

  it('--workspace with --api-url exits 2: it loads into a local database only', async () => {
    const run = await runCli(['whoami', '--workspace', writeWorkspace(seriesWorkspace()), '--api-url', modes.remote.api], {
      env: { SCHEDULE_TOKEN: ORA },
    });
    expect(run).toEqual(failure(2, 'usage', '--workspace loads into a local database; it cannot be used with --api-url.'));
  });
});

describe('piped output and --verbose, in both modes', () => {
  it('--verbose on a failing write: the mode, the generated idempotency key, the error line and its details on stderr', async () => {
    const args = ['series', 'create', '--host', SERIES_USERS.hal, '--event-type', SYNC.id, '--attendee-email', 'pat@example.com'];
    const runs = await modes.both([
      ...args,
      '--frequency',
      'weekly',
      '--weekdays',
      'mon',
      '--time',
      '10:00',
      '--starts-on',
      STARTS_ON,
      '--count',
      '43',
      '--verbose',
    ]);
    for (const name of MODE_NAMES) {
      expect(runs[name]).toMatchObject({ code: 2, stdout: '' });
      const lines = runs[name].stderr.split('\n');
      expect(lines[0]).toBe(`mode: ${name}`);
      expect(lines[1]).toMatch(/^idempotency-key: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(lines.slice(2)).toEqual([
        'error count_out_of_range: --count must be 1 to 42.',
        'details: {"fields":["count"],"min":1,"max":42}',
        '',
      ]);
    }
    expectSameInBothModes(modes, runs);
  });

  it('--verbose on a read prints the mode only (no key: nothing is written)', async () => {
    const runs = await modes.both(['whoami', '--verbose', '--json']);
    for (const name of MODE_NAMES) expect(runs[name].stderr).toBe(`mode: ${name}\n`);
    expectSameInBothModes(modes, runs);
  });

  it('piped instants are the stored UTC ISO whatever --tz says; --no-color and NO_COLOR change nothing', async () => {
    const plain = await modes.both(['bookings', 'list']);
    const zoned = await modes.both(['bookings', 'list', '--tz', 'America/New_York', '--no-color'], { env: { NO_COLOR: '1' } });
    const line = `${BLOCKER_UID}\t${tokyoAt(3, '10:00')}\t${tokyoAt(3, '10:30')}\tconfirmed\thal\tWeekly sync between Hal Host and Blocker\n`;
    expectSameInBothModes(modes, plain, () => success(line));
    expectSameInBothModes(modes, zoned, () => success(line));
  });

  it('--json of an empty list is an empty array', async () => {
    const runs = await modes.both(['bookings', 'list', '--status', 'canceled', '--json']);
    expectSameInBothModes(modes, runs, () => success('[]\n'));
  });

  it('the environment picks the mode: $SCHEDULE_API_URL remote, $DATABASE_URL embedded; flags win over it', async () => {
    const [remote, embedded, flagWins] = await Promise.all([
      runCli(['whoami', '--verbose'], { env: { SCHEDULE_TOKEN: ORA, SCHEDULE_API_URL: modes.remote.api } }),
      runCli(['whoami', '--verbose'], { env: { SCHEDULE_TOKEN: ORA, DATABASE_URL: modes.embedded.db } }),
      runCli(['whoami', '--verbose', '--db', modes.embedded.db], { env: { SCHEDULE_TOKEN: ORA, DATABASE_URL: '/nonexistent/dir/x.db' } }),
    ]);
    expect(remote.stderr).toBe('mode: remote\n');
    expect(embedded.stderr).toBe('mode: embedded\n');
    expect(flagWins.stderr).toBe('mode: embedded\n');
    expect([remote.code, embedded.code, flagWins.code]).toEqual([0, 0, 0]);
    expect(embedded.stdout).toBe(remote.stdout);
    expect(flagWins.stdout).toBe(remote.stdout);
    expect(remote.stdout).toContain(`user_id\t${SERIES_USERS.ora}\n`);
  });
});
