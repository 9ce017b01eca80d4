import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, type PerMode, startCliModes } from './support/cli-modes.js';
import { failure, jsonOf, success } from './support/cli-run.js';
import { HOST_VIEW, SERIES_SECRETS, SERIES_USERS, STARTS_ON, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// Issue 11, item 8: `--host` takes a username as well as a user id wherever
// a host is chosen (the bookings and series list filters, series create and
// move, and slots and bookings create, where the host is the event type's
// owner), and an API error names the flag the user typed, not the API's
// field (`--start`, not `start`; `--event-type`, not `event_type_id`).
// The workspace is series-workspace.ts: ora (owner) acts for hal and gil.

const ORA = SERIES_SECRETS.ora;
let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
});

afterAll(async () => {
  await modes?.stop();
});

describe('--host alice works like --host <user id>', () => {
  it('bookings list --host hal lists what --host <hal id> lists', async () => {
    const [byName, byId] = await Promise.all([
      modes.both(['bookings', 'list', '--host', 'hal']),
      modes.both(['bookings', 'list', '--host', SERIES_USERS.hal]),
    ]);
    expect(byName.remote.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    for (const name of MODE_NAMES) expect(byName[name]).toEqual(byId[name]);
    expectSameInBothModes(modes, byName);
  });

  it('slots list --host hal --event-slug sync lists what --username hal lists; --host <hal id> too', async () => {
    const window = ['--event-slug', 'sync', '--start', tokyoAt(1, '09:00'), '--end', tokyoAt(1, '10:00')];
    const [byHost, byId, byUsername] = await Promise.all([
      modes.both(['slots', 'list', '--host', 'hal', ...window]),
      modes.both(['slots', 'list', '--host', SERIES_USERS.hal, ...window]),
      modes.both(['slots', 'list', '--username', 'hal', ...window]),
    ]);
    expect(byUsername.remote).toEqual(
      success(`${tokyoAt(1, '09:00')}\t${tokyoAt(1, '09:30')}\n${tokyoAt(1, '09:30')}\t${tokyoAt(1, '10:00')}\n`),
    );
    for (const name of MODE_NAMES) {
      expect(byHost[name]).toEqual(byUsername[name]);
      expect(byId[name]).toEqual(byUsername[name]);
    }
  });

  it('bookings create --host hal --event-slug sync books hal', async () => {
    const runs = await modes.both([
      'bookings',
      'create',
      '--host',
      'hal',
      '--event-slug',
      'sync',
      '--start',
      tokyoAt(2, '15:00'),
      '--attendee-email',
      'kim@example.com',
      '--json',
    ]);
    for (const name of MODE_NAMES) expect(jsonOf(runs[name])).toMatchObject({ start_at: tokyoAt(2, '15:00'), host: { username: 'hal' } });
    expectSameInBothModes(modes, runs);
  });

  it('series create --host hal, series list --host hal, then series move --host gil: names all the way', async () => {
    const created = await modes.both([
      'series',
      'create',
      '--host',
      'hal',
      '--username',
      'hal',
      '--event-slug',
      'sync',
      '--attendee-email',
      'pat@example.com',
      '--frequency',
      'weekly',
      '--weekdays',
      'fri',
      '--time',
      '14:00',
      '--starts-on',
      STARTS_ON,
      '--count',
      '2',
      '--json',
    ]);
    const uids: PerMode<string> = { embedded: '', remote: '' };
    for (const name of MODE_NAMES) {
      uids[name] = jsonOf(created[name]).series.uid;
      expect(jsonOf(created[name]).series.host).toEqual(HOST_VIEW.hal);
    }
    const listed = await modes.both(['series', 'list', '--host', 'hal', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(listed[name]).map((s: { uid: string }) => s.uid)).toEqual([uids[name]]);
    const moved = await modes.both((m) => ['series', 'move', uids[m.name], '--host', 'gil']);
    for (const name of MODE_NAMES) expect((await modes[name].get(`/v1/series/${uids[name]}`)).host).toEqual(HOST_VIEW.gil);
    expectSameInBothModes(modes, moved, () => success('moved\t2\nunchanged\t0\nstopped_by\t\nsuperseded\tfalse\n'));
  });

  it('a name no one the token may act for has exits 3 naming --host; for hal, gil is such a name', async () => {
    const unknown = await modes.both(['bookings', 'list', '--host', 'zed']);
    expectSameInBothModes(modes, unknown, () =>
      failure(3, 'not_found', '--host zed: no one this token may act for has that username or id.'),
    );
    const notHis = await modes.both(['series', 'list', '--host', 'gil'], { token: SERIES_SECRETS.hal });
    expectSameInBothModes(modes, notHis, () =>
      failure(3, 'not_found', '--host gil: no one this token may act for has that username or id.'),
    );
  });

  it('--host and --username together exit 2: they name one person', async () => {
    const runs = await modes.both([
      'slots',
      'list',
      '--host',
      'hal',
      '--username',
      'hal',
      '--event-slug',
      'sync',
      '--start',
      STARTS_ON,
      '--end',
      STARTS_ON,
    ]);
    expectSameInBothModes(modes, runs, () => failure(2, 'usage', '--host and --username both name the owner; give one of them.'));
  });
});

describe('errors name the flag the user typed, not the API field', () => {
  it('a query parameter: --end must be after --start; --status: …', async () => {
    const [window, status] = await Promise.all([
      modes.both(['slots', 'list', '--event-type', SYNC.id, '--start', tokyoAt(1, '10:00'), '--end', tokyoAt(1, '09:00')]),
      modes.both(['bookings', 'list', '--status', 'booked']),
    ]);
    expectSameInBothModes(modes, window, () => failure(2, 'invalid_query_param', '--end must be after --start.'));
    expectSameInBothModes(modes, status, () =>
      failure(2, 'invalid_query_param', '--status: must be a comma-separated list of confirmed, pending, canceled, declined.'),
    );
  });

  it('a body field: --event-type, --owner and --event-slug; --start; every flag series update takes', async () => {
    const create = (...more: string[]) => ['bookings', 'create', '--attendee-email', 'kim@example.com', ...more];
    const [noEventType, badStart, apiStart, noChange] = await Promise.all([
      modes.both(create('--event-slug', 'sync', '--start', tokyoAt(2, '16:00'))),
      modes.both(create('--event-type', SYNC.id, '--start', 'tomorrow')),
      modes.both(create('--event-type', SYNC.id, '--guest', 'not-an-email', '--start', '2026-12-08T25:00:00Z')),
      modes.both(['series', 'update', 'a5000000-0000-4000-8000-00000000dead', '--if-match', '1']),
    ]);
    // Issue 29, item 11: the CLI names the event type in its own flags, and reads the times typed itself.
    expectSameInBothModes(modes, noEventType, () =>
      failure(2, 'usage', '--event-slug sync: whose event type is it? Add --owner <username>.'),
    );
    expectSameInBothModes(modes, badStart, () =>
      failure(2, 'usage', '--start tomorrow is not a time; give one such as 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.'),
    );
    // What names its offset goes to the API as typed, and its answer names the flags.
    for (const name of MODE_NAMES) {
      expect(apiStart[name]).toMatchObject({ code: 2, stdout: '' });
      expect(apiStart[name].stderr).toMatch(
        /^error validation_error: --start: must be an ISO 8601 date-time.*; --guest: must be an email address\n$/,
      );
      expect(apiStart[name].stderr).not.toMatch(/(?<!-)\b(start|guests):/);
    }
    expectSameInBothModes(modes, apiStart);
    expectSameInBothModes(modes, noChange, () =>
      failure(2, 'validation_error', 'Send at least one of --frequency, --interval-weeks, --weekdays, --time, --location-url, --notify.'),
    );
  });

  it('--verbose still shows the details as the API gave them', async () => {
    const runs = await modes.both([
      'slots',
      'list',
      '--event-type',
      SYNC.id,
      '--start',
      tokyoAt(1, '10:00'),
      '--end',
      tokyoAt(1, '09:00'),
      '--verbose',
    ]);
    for (const name of MODE_NAMES)
      expect(runs[name].stderr.split('\n').slice(1)).toEqual([
        'error invalid_query_param: --end must be after --start.',
        'details: {"param":"end"}',
        '',
      ]);
  });
});
