import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, MODE_NAMES } from './support/cli-modes.js';
import { failure, jsonOf, runCli, success, tsv } from './support/cli-run.js';

// `schedule availability …` as the real binary, piped, embedded (`--db`) and
// remote (`--api-url`): the same output and exit codes in both modes, and
// what it wrote is what GET /v1/people/:user_id/availability answers.

const USERS = {
  ann: 'c8000000-0000-4000-8000-000000000001',
  bob: 'c8000000-0000-4000-8000-000000000002',
  cy: 'c8000000-0000-4000-8000-000000000003',
} as const;
const TOKEN = 'cli-hours-secret-ann-rw';

const workspace = {
  organization: { name: 'CLI Hours' },
  limits: { pat_per_minute: 10_000 },
  users: [
    { id: USERS.ann, username: 'ann', email: 'ann@cli-hours.test', name: 'Ann', role: 'manager', manages: ['bob'] },
    { id: USERS.bob, username: 'bob', email: 'bob@cli-hours.test', name: 'Bob', role: 'user' },
    { id: USERS.cy, username: 'cy', email: 'cy@cli-hours.test', name: 'Cy', role: 'user' },
  ],
  tokens: [{ name: 'ann', user: 'ann', secret: TOKEN, scopes: ['availability:read', 'availability:write'] }],
};

const AROUND = '00:00-24:00';

/** The piped lines of a document: zone, the seven days, the overrides, default, version. */
function hoursLines(user: string, days: Record<string, string>, overrides: [string, string][], version: number): string {
  const week = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, days[d] ?? AROUND]);
  return tsv([
    ['user_id', user],
    ['timezone', 'the person’s own'],
    ...week,
    ...overrides,
    ['default', version === 0],
    ['version', version],
  ]);
}

let modes: CliModes;

beforeAll(async () => {
  const { startCliModes } = await import('./support/cli-modes.js');
  modes = await startCliModes(workspace, TOKEN);
});
afterAll(() => modes?.stop());

describe('schedule availability', () => {
  it('get prints the hours in use, around the clock by default, at version 0', async () => {
    const runs = await modes.both(['availability', 'get']);
    for (const name of MODE_NAMES) expect(runs[name]).toEqual(success(hoursLines(USERS.ann, {}, [], 0)));
  });

  it('set --mon … --sat off changes those days over the hours read, merged, and the API answers the same', async () => {
    const runs = await modes.both(['availability', 'set', '--mon', '08:00-12:00,11:00-13:00', '--sat', 'off']);
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(success(hoursLines(USERS.ann, { mon: '08:00-13:00', sat: 'off' }, [], 1)));
      expect(await modes[name].get('/v1/people/me/availability')).toMatchObject({
        version: 1,
        weekly: { mon: [['08:00', '13:00']], sat: [] },
      });
    }
  });

  it('get --json, edited, goes back with set --file - (stdin), its version as If-Match; a stale file is refused', async () => {
    for (const name of MODE_NAMES) {
      const mode = modes[name];
      const read = jsonOf(await mode.run(['availability', 'get', '--json']));
      const edited = JSON.stringify({ ...read, weekly: { ...read.weekly, tue: [['09:00', '17:00']] } });
      const set = await runCli(['availability', 'set', '--file', '-', '--json', ...mode.args], {
        env: { SCHEDULE_TOKEN: TOKEN },
        input: edited,
      });
      expect(jsonOf(set)).toMatchObject({ version: 2, weekly: { tue: [['09:00', '17:00']] } });
      const stale = await runCli(['availability', 'set', '--file', '-', ...mode.args], { env: { SCHEDULE_TOKEN: TOKEN }, input: edited });
      expect(stale).toEqual(failure(5, 'version_conflict', 'The working hours are at version 2.'));
    }
  });

  it('override add (a day off by default, or --hours) and override remove; removing a date without one exits 3', async () => {
    const runs = await modes.both(['availability', 'override', 'add', '2026-12-24']);
    const days = { mon: '08:00-13:00', tue: '09:00-17:00', sat: 'off' };
    for (const name of MODE_NAMES) expect(runs[name]).toEqual(success(hoursLines(USERS.ann, days, [['2026-12-24', 'off']], 3)));
    const other = await modes.both(['availability', 'override', 'add', '2026-12-31', '--hours', '09:00-12:00', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(other[name]).overrides).toEqual([
        { date: '2026-12-24', intervals: [] },
        { date: '2026-12-31', intervals: [['09:00', '12:00']] },
      ]);
    }
    const removed = await modes.both(['availability', 'override', 'remove', '2026-12-24', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(removed[name])).toMatchObject({ version: 5, overrides: [{ date: '2026-12-31' }] });
    const missing = await modes.both(['availability', 'override', 'remove', '2026-12-24']);
    for (const name of MODE_NAMES) expect(missing[name]).toEqual(failure(3, 'not_found', 'No override on 2026-12-24.'));
  });

  it('acts for someone managed with --user, and names --user when it may not', async () => {
    const bob = await modes.both(['availability', 'set', '--user', 'bob', '--fri', '10:00-11:00']);
    for (const name of MODE_NAMES) expect(bob[name]).toEqual(success(hoursLines(USERS.bob, { fri: '10:00-11:00' }, [], 1)));
    const cy = await modes.both(['availability', 'get', '--user', 'cy']);
    for (const name of MODE_NAMES)
      expect(cy[name]).toEqual(failure(4, 'host_not_allowed', '--user is not someone this caller may act for.'));
  });

  it('refuses hours it cannot read before any call, with exit 2', async () => {
    const typed = await modes.both(['availability', 'set', '--mon', '9-5']);
    for (const name of MODE_NAMES) {
      expect(typed[name]).toEqual(
        failure(2, 'usage', '--mon 9-5 is not hours; give from-to pairs such as 09:00-12:00,13:00-17:00, or off.'),
      );
    }
  });

  it('refuses hours the API refuses with its validation_error, exit 2', async () => {
    const reversed = await modes.both(['availability', 'set', '--tue', '12:00-09:00']);
    for (const name of MODE_NAMES) {
      expect(reversed[name]).toEqual(failure(2, 'validation_error', 'weekly.tue.0: an interval must end after it starts'));
    }
  });

  it('refuses a set that would change nothing, exit 2', async () => {
    const nothing = await modes.both(['availability', 'set']);
    for (const name of MODE_NAMES) {
      expect(nothing[name]).toEqual(failure(2, 'usage', 'Give --file, a day (--mon 09:00-17:00 …) or --timezone: nothing would change.'));
    }
  });
});
