import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP } from './support/booking-view.js';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { failure, jsonOf, objectLines, success, tsv } from './support/cli-run.js';
import { api, expectPage } from './support/http.js';
import { SERIES_SECRETS, SERIES_USERS, SYNC, seriesWorkspace, tokyoAt, tokyoEnd } from './support/series-workspace.js';

// Issue 6: `schedule slots list|check`, `schedule whoami` and
// `schedule event-types list` as the real binary, piped, embedded and
// remote. The workspace is series-workspace.ts with a second event type
// (gil's), so the event type list has two pages of one.

const ORA = SERIES_SECRETS.ora;
const INTRO = { id: 'a5e00000-0000-4000-8000-0000000000c1', slug: 'intro', name: 'Intro' };

let modes: CliModes;

beforeAll(async () => {
  const workspace = seriesWorkspace();
  const eventTypes = workspace.event_types as Record<string, unknown>[];
  workspace.event_types = [
    ...eventTypes,
    {
      id: INTRO.id,
      owner: 'gil',
      slug: INTRO.slug,
      name: INTRO.name,
      duration_minutes: 45,
      minimum_notice_minutes: 0,
      recurring: 'off',
      questions: [
        { id: 'agenda', label: 'Agenda', required: true },
        { id: 'room', label: 'Room', type: 'select', options: ['north', 'south'] },
      ],
    },
  ];
  modes = await startCliModes(workspace, ORA);
});

afterAll(async () => {
  await modes?.stop();
});

const slotsList = (...more: string[]) => ['slots', 'list', '--start', tokyoAt(1, '09:00'), '--end', tokyoAt(1, '11:00'), ...more];
const query = (start: string, end: string) => `start=${start}&end=${end}`;

describe('slots', () => {
  it('slots list prints one `start<TAB>end` line per free slot, in UTC as stored', async () => {
    const runs = await modes.both(slotsList('--event-type', SYNC.id));
    const times = ['09:00', '09:30', '10:00', '10:30'];
    for (const name of MODE_NAMES) {
      const data = await modes[name].get(`/v1/slots?event_type_id=${SYNC.id}&${query(tokyoAt(1, '09:00'), tokyoAt(1, '11:00'))}`);
      expect(runs[name]).toEqual(success(tsv(data.slots.map((s: { start: string; end: string }) => [s.start, s.end]))));
    }
    expectSameInBothModes(modes, runs, () => success(tsv(times.map((t) => [tokyoAt(1, t), tokyoEnd(1, t)]))));
  });

  it("slots list --json (by --username and --event-slug, in --timezone) is the API's data; only computed_at differs", async () => {
    const runs = await modes.both(slotsList('--username', 'hal', '--event-slug', 'sync', '--timezone', 'Europe/Paris', '--json'));
    for (const name of MODE_NAMES) {
      const data = await modes[name].get(
        `/v1/slots?username=hal&event_slug=sync&timezone=Europe/Paris&${query(tokyoAt(1, '09:00'), tokyoAt(1, '11:00'))}`,
      );
      expect(data).toMatchObject({ event_type_id: SYNC.id, timezone: 'Europe/Paris' });
      expect(jsonOf(runs[name])).toEqual({ ...data, computed_at: expect.stringMatching(TIMESTAMP) });
    }
    expectSameInBothModes(modes, runs);
  });

  it('a window over 31 days exits 2: error invalid_query_param', async () => {
    const runs = await modes.both([
      'slots',
      'list',
      '--event-type',
      SYNC.id,
      '--start',
      tokyoAt(0, '00:00'),
      '--end',
      tokyoAt(32, '00:00'),
    ]);
    expectSameInBothModes(modes, runs, () => failure(2, 'invalid_query_param', 'The window from --start to --end is at most 31 days.'));
  });

  it('a missing --end exits 2 naming it, nothing on stdout', async () => {
    const runs = await modes.both(['slots', 'list', '--event-type', SYNC.id, '--start', tokyoAt(1, '09:00')]);
    expectSameInBothModes(modes, runs, () => ({
      code: 2,
      stdout: '',
      stderr: "error usage: required option '--end <iso>' not specified\n(run with --help for usage)\n",
    }));
  });

  it('an unknown event type exits 3: error event_type_not_found', async () => {
    const runs = await modes.both(slotsList('--username', 'hal', '--event-slug', 'nope'));
    expectSameInBothModes(modes, runs, () => failure(3, 'event_type_not_found', 'No such event type.'));
  });

  it('slots check prints available and duration for a free start, the reason and next_available for a taken one; --json is the data', async () => {
    const free = await modes.both(['slots', 'check', '--event-type', SYNC.id, '--start', tokyoAt(1, '09:00')]);
    const taken = await modes.both(['slots', 'check', '--event-type', SYNC.id, '--start', tokyoAt(3, '10:00')]);
    const json = await modes.both(['slots', 'check', '--event-type', SYNC.id, '--start', tokyoAt(3, '10:00'), '--json']);
    for (const name of MODE_NAMES) {
      const data = await modes[name].get(`/v1/slots/check?event_type_id=${SYNC.id}&start=${tokyoAt(3, '10:00')}`);
      expect(jsonOf(json[name])).toEqual(data);
    }
    expectSameInBothModes(modes, free, () => success('available\ttrue\nduration_minutes\t30\n'));
    expectSameInBothModes(modes, taken, () => success(`available\tfalse\nreason\tslot_busy\nnext_available\t${tokyoAt(3, '10:30')}\n`));
    expectSameInBothModes(modes, json);
  });
});

describe('whoami', () => {
  it('prints who the token acts as, key<TAB>value; --json is GET /v1/me', async () => {
    const lines = await modes.both(['whoami']);
    const json = await modes.both(['whoami', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(json[name])).toEqual(await modes[name].get('/v1/me'));
    expectSameInBothModes(modes, lines, () =>
      success(
        tsv([
          ['user_id', SERIES_USERS.ora],
          ['username', 'ora'],
          ['name', 'Ora Owner'],
          ['email', 'ora@series.test'],
          ['timezone', 'Asia/Tokyo'],
          ['role', 'owner'],
          ['credential', 'pat'],
          [
            'scopes',
            'availability:read,availability:write,bookings:cancel,bookings:create,bookings:read,bookings:reschedule,bookings:update,calendars:read,calendars:write,event_types:write,people:write,series:read,series:write,slots:read,tokens:read,tokens:write,webhooks:read,webhooks:write',
          ],
          ['acts_for', 'organization'],
        ]),
      ),
    );
    expectSameInBothModes(modes, json);
  });

  it('--token (no SCHEDULE_TOKEN) acts as that token: a user who acts for himself has his id in acts_for', async () => {
    const runs = await modes.both(['whoami', '--token', SERIES_SECRETS.hal], { token: null });
    for (const name of MODE_NAMES) {
      const me = await modes[name].get('/v1/me', SERIES_SECRETS.hal);
      expect(me.acts_for).toEqual([SERIES_USERS.hal]);
      expect(runs[name]).toEqual(success(objectLines(me)));
    }
    expect(runs.remote.stdout).toContain(`\nacts_for\t${SERIES_USERS.hal}\n`);
    expectSameInBothModes(modes, runs);
  });
});

describe('event-types list', () => {
  it('prints one line per event type (id, owner/slug, name, minutes, recurring, status, questions); --limit 1 the first page only', async () => {
    const all = await modes.both(['event-types', 'list']);
    const first = await modes.both(['event-types', 'list', '--limit', '1']);
    // README, "the directory": by owner and slug.
    const lines = [
      [INTRO.id, 'gil/intro', 'Intro', 45, 'off', 'on', 'agenda*,room'],
      [SYNC.id, 'hal/sync', 'Weekly sync', 30, 'on', 'on', '-'],
    ];
    for (const name of MODE_NAMES) {
      const listed = await modes[name].getAll('/v1/event-types?limit=100');
      expect(listed.map((e) => e.id)).toEqual([INTRO.id, SYNC.id]);
    }
    expectSameInBothModes(modes, all, () => success(tsv(lines)));
    // Issue 11: the page has more after it, so stderr says how to get it, piped too.
    const next = expectPage(await api(modes.remote.api, '/v1/event-types?limit=1', { token: ORA })).nextCursor;
    expectSameInBothModes(modes, first, () => ({
      code: 0,
      stdout: tsv(lines.slice(0, 1)),
      stderr: `more: pass --cursor ${next} or --all\n`,
    }));
  });

  it("--all --limit 1 --json is every page as one array, equal to GET /v1/event-types' data", async () => {
    const runs = await modes.both(['event-types', 'list', '--all', '--limit', '1', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(runs[name])).toEqual(await modes[name].getAll('/v1/event-types?limit=1'));
    expectSameInBothModes(modes, runs);
  });
});
