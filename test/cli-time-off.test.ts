import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, type PerMode, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, jsonOf, success, tsv } from './support/cli-run.js';

// `schedule time-off …` as the real binary, embedded (`--db`) and remote
// (`--api-url`), asserting stdout, stderr and exit code against what the
// HTTP API answers on the same database; both modes print the same but for
// ids and write times.

const USERS = {
  ann: 'c8000000-0000-4000-8000-000000000001',
  ben: 'c8000000-0000-4000-8000-000000000002',
  ada: 'c8000000-0000-4000-8000-000000000003',
} as const;
const TOKENS = { ann: 'cli-time-off-secret-ann', ben: 'cli-time-off-secret-ben', ada: 'cli-time-off-secret-ada' } as const;
const RW = ['availability:read', 'availability:write'];

const workspace = {
  organization: { name: 'CLI Away' },
  limits: { pat_per_minute: 10_000 },
  users: [
    {
      id: USERS.ann,
      username: 'ann',
      email: 'ann@cli-away.test',
      name: 'Ann',
      role: 'user',
      timezone: 'Europe/Berlin',
      schedule: { timezone: 'Europe/Berlin', weekly: { mon: [['09:00', '17:00']] } },
    },
    { id: USERS.ben, username: 'ben', email: 'ben@cli-away.test', name: 'Ben', role: 'user' },
    { id: USERS.ada, username: 'ada', email: 'ada@cli-away.test', name: 'Ada', role: 'admin' },
  ],
  tokens: [
    { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: RW },
    { name: 'ben', user: 'ben', secret: TOKENS.ben, scopes: RW },
    { name: 'ada', user: 'ada', secret: TOKENS.ada, scopes: RW },
  ],
};

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(workspace, TOKENS.ann);
});
afterAll(() => modes?.stop());

/** Both modes printed the same once ids and write times are replaced. */
const expectAlike = (runs: PerMode<CliRun>) => expectSameInBothModes(modes, runs);

// Each test runs the binary several times; a loaded machine takes seconds per run.
describe('schedule time-off', { timeout: 60_000 }, () => {
  const made: PerMode<Record<string, any>> = { embedded: {}, remote: {} };

  it('add --date --reason --json prints the whole day in Ann’s zone, as GET answers it', async () => {
    const runs = await modes.both(['time-off', 'add', '--date', '2026-12-11', '--reason', 'Day off', '--json']);
    for (const name of MODE_NAMES) {
      const data = jsonOf(runs[name]);
      expect(runs[name].stderr).toBe('');
      expect(data).toMatchObject({
        user_id: USERS.ann,
        start_at: '2026-12-10T23:00:00.000Z',
        end_at: '2026-12-11T23:00:00.000Z',
        reason: 'Day off',
        version: 1,
      });
      expect(await modes[name].get(`/v1/people/me/time-off/${data.id}`)).toEqual(data);
      made[name] = data;
    }
    expectAlike(runs);
  });

  it('add --start --end reads times without an offset in --tz, for a user named by --user (an admin acting for Ann)', async () => {
    const args = ['time-off', 'add', '--user', 'ann', '--start', '2026-12-14T12:00', '--end', '2026-12-14T14:00', '--tz', 'Europe/Berlin'];
    const runs = await modes.both([...args, '--json'], { token: TOKENS.ada });
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name])).toMatchObject({
        user_id: USERS.ann,
        start_at: '2026-12-14T11:00:00.000Z',
        end_at: '2026-12-14T13:00:00.000Z',
        reason: null,
      });
    }
    expectAlike(runs);
  });

  it('list --json prints the API’s items, earliest first; piped, one line per range', async () => {
    const runs = await modes.both(['time-off', 'list', '--json']);
    for (const name of MODE_NAMES) {
      const items = await modes[name].getAll('/v1/people/me/time-off?limit=100');
      expect(items).toHaveLength(2);
      expect(runs[name]).toEqual(success(`${JSON.stringify(items, null, 2)}\n`));
      expect(await modes[name].run(['time-off', 'list'])).toEqual(success(tsv(items.map((t) => [t.id, t.start_at, t.end_at, t.reason]))));
      const window = await modes[name].run(['time-off', 'list', '--from', '2026-12-12', '--json']);
      expect(jsonOf(window)).toEqual(items.slice(1));
    }
    expectAlike(runs);
  });

  it('update --until reads the version itself and prints the range at version 2', async () => {
    const runs = await modes.both((m) => ['time-off', 'update', made[m.name].id, '--until', '2026-12-12', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name])).toEqual(await modes[name].get(`/v1/people/me/time-off/${made[name].id}`));
      expect(jsonOf(runs[name])).toMatchObject({ start_at: '2026-12-10T23:00:00.000Z', end_at: '2026-12-12T23:00:00.000Z', version: 2 });
    }
    expectAlike(runs);
  });

  it('update with a stale --if-match exits 5 version_conflict', async () => {
    const runs = await modes.both((m) => ['time-off', 'update', made[m.name].id, '--reason', 'x', '--if-match', '1']);
    for (const name of MODE_NAMES) expect(runs[name]).toEqual(failure(5, 'version_conflict', 'The time off is at version 2.'));
  });

  it('names the flags of a bad range: --start without --end exits 2', async () => {
    const runs = await modes.both(['time-off', 'add', '--start', '2026-12-14T12:00:00Z']);
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(failure(2, 'validation_error', 'Send --end (an instant) or --until (a whole day) with --start.'));
    }
  });

  it('refuses someone the caller may not act for with exit 4 host_not_allowed, naming the flag typed', async () => {
    const runs = await modes.both(['time-off', 'add', '--user', 'ann', '--date', '2026-12-11'], { token: TOKENS.ben });
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(failure(4, 'host_not_allowed', '--user is not someone this caller may act for.'));
    }
  });

  it('remove --json prints the range as it was; then get exits 3 time_off_not_found', async () => {
    const before: PerMode<unknown> = {
      embedded: await modes.embedded.get(`/v1/people/me/time-off/${made.embedded.id}`),
      remote: await modes.remote.get(`/v1/people/me/time-off/${made.remote.id}`),
    };
    const runs = await modes.both((m) => ['time-off', 'remove', made[m.name].id, '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(runs[name])).toEqual(before[name]);
    expectAlike(runs);
    const gone = await modes.both((m) => ['time-off', 'get', made[m.name].id]);
    for (const name of MODE_NAMES) expect(gone[name]).toEqual(failure(3, 'time_off_not_found', 'No time off with this id for this user.'));
  });
});
