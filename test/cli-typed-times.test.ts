import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { jsonOf, runCli, success, tsv } from './support/cli-run.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 11, item 2: the API refuses an instant without `Z` or an offset
// (docs/api/overview.md "Instants, dates and zones"), and the CLI is the exception on the
// way in: a time typed without one is read in --tz (default: the machine's
// zone, pinned here with TZ) and sent with its offset. The host works every
// hour of every day in Europe/Berlin, so that the DST gap and overlap of
// the coming year can be booked: a time in the spring-forward gap moves
// forward, one in the fall-back overlap takes the earlier instant.

const BERT = 'c2000000-0000-4000-8000-000000000001';
const CALL = { id: 'c2e00000-0000-4000-8000-000000000001', slug: 'call', duration: 30 };
const SECRET = 'typed-times-secret-owner';
const DAY_MS = 86_400_000;

/** The last Sunday of a month (`month` 1-12) as `YYYY-MM-DD`: when the EU changes its clocks. */
function lastSunday(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0));
  last.setUTCDate(last.getUTCDate() - last.getUTCDay());
  return last.toISOString().slice(0, 10);
}

/** The first such day more than two days ahead, so every time on it is in the future. */
function nextLastSunday(month: number): string {
  const soonest = new Date(Date.now() + 2 * DAY_MS).toISOString().slice(0, 10);
  const year = new Date().getUTCFullYear();
  return [year, year + 1].map((y) => lastSunday(y, month)).find((day) => day > soonest)!;
}

/** Berlin springs forward at 02:00 (to 03:00, UTC+2) and falls back at 03:00 (to 02:00, UTC+1). */
const SPRING = nextLastSunday(3);
const FALL = nextLastSunday(10);
const utc = (day: string, time: string) => `${day}T${time}:00.000Z`;

function workspace(): Record<string, unknown> {
  const allDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]));
  return {
    organization: { name: 'Typed times' },
    limits: { pat_per_minute: 10_000 },
    users: [
      {
        id: BERT,
        username: 'bert',
        email: 'bert@times.test',
        name: 'Bert Berlin',
        timezone: 'Europe/Berlin',
        role: 'owner',
        schedule: { timezone: 'Europe/Berlin', weekly: allDay },
      },
    ],
    event_types: [
      {
        id: CALL.id,
        owner: 'bert',
        slug: CALL.slug,
        name: 'Call',
        duration_minutes: CALL.duration,
        minimum_notice_minutes: 0,
        future_limit_days: 800,
      },
    ],
    tokens: [{ name: 'bert', user: 'bert', secret: SECRET, scopes: [...ALL_SCOPES] }],
  };
}

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(workspace(), SECRET);
});

afterAll(async () => {
  await modes?.stop();
});

const book = (start: string, email: string, ...more: string[]) => [
  'bookings',
  'create',
  '--event-type',
  CALL.id,
  '--start',
  start,
  '--attendee-email',
  email,
  '--json',
  ...more,
];

/** The start each mode booked, after checking both printed the same. */
async function bookedStart(args: readonly string[], env?: Record<string, string>): Promise<string> {
  const runs = await modes.both(args, env ? { env } : {});
  expectSameInBothModes(modes, runs);
  const starts = MODE_NAMES.map((name) => jsonOf(runs[name]).start_at as string);
  expect(starts[0]).toBe(starts[1]);
  return starts[0]!;
}

describe('a time typed without an offset is read in --tz', () => {
  it('2026-12-09T11:00 with --tz Europe/Berlin books 11:00 Berlin: the offset in force that day is sent', async () => {
    expect(await bookedStart(book(`${SPRING}T12:00`, 'a@example.com', '--tz', 'Europe/Berlin'))).toBe(utc(SPRING, '10:00'));
    expect(await bookedStart(book(`${FALL}T12:00`, 'b@example.com', '--tz', 'Europe/Berlin'))).toBe(utc(FALL, '11:00'));
  });

  it('spring-forward gap moves forward: 02:30 on the day Berlin skips 02:00-03:00 books 03:30 CEST', async () => {
    expect(await bookedStart(book(`${SPRING}T02:30`, 'c@example.com', '--tz', 'Europe/Berlin'))).toBe(utc(SPRING, '01:30'));
  });

  it('fall-back takes the first instant: 02:30 on the day Berlin lives 02:00-03:00 twice books the earlier (CEST) one', async () => {
    expect(await bookedStart(book(`${FALL}T02:30`, 'd@example.com', '--tz', 'Europe/Berlin'))).toBe(utc(FALL, '00:30'));
  });

  it("without --tz the machine's zone reads it (TZ=Europe/Berlin), seconds kept", async () => {
    const start = await bookedStart(book(`${FALL}T14:00:00`, 'e@example.com'), { TZ: 'Europe/Berlin' });
    expect(start).toBe(utc(FALL, '13:00'));
  });

  it('a time with an offset or Z is sent as typed, whatever --tz says', async () => {
    expect(await bookedStart(book(`${FALL}T15:00:00+01:00`, 'f@example.com', '--tz', 'Asia/Tokyo'))).toBe(utc(FALL, '14:00'));
    expect(await bookedStart(book(`${FALL}T16:00Z`, 'g@example.com', '--tz', 'Asia/Tokyo'))).toBe(utc(FALL, '16:00'));
  });

  it('bookings reschedule --start reads a zone-less time in --tz', async () => {
    const made = await modes.both(book(`${FALL}T19:00`, 'h@example.com', '--tz', 'Europe/Berlin'));
    const runs = await modes.both((m) => [
      'bookings',
      'reschedule',
      jsonOf(made[m.name]).uid,
      '--start',
      `${FALL}T18:30`,
      '--tz',
      'America/New_York',
      '--json',
    ]);
    for (const name of MODE_NAMES) expect(jsonOf(runs[name]).start_at).toBe(utc(FALL, '22:30'));
    expectSameInBothModes(modes, runs);
  });
});

describe('lists and slots: a date stays a date, a time is read in --tz', () => {
  it('bookings list --from <date> --to <zone-less time> lists what the API lists for the date and the instant with its offset', async () => {
    const runs = await modes.both([
      'bookings',
      'list',
      '--from',
      FALL,
      '--to',
      `${FALL}T03:00`,
      '--tz',
      'Europe/Berlin',
      '--sort',
      'start_at_asc',
    ]);
    for (const name of MODE_NAMES) {
      // 03:00 after the clocks went back is 02:00 UTC; the date is the API's to read.
      const expected = await modes[name].getAll(`/v1/bookings?start_date=${FALL}&end_date=${FALL}T02:00:00Z&sort=start_at_asc`);
      expect(expected.map((b) => b.start_at)).toEqual([utc(FALL, '00:30')]);
      expect(runs[name].stdout).toBe(tsv(expected.map((b) => [b.uid, b.start_at, b.end_at, b.status, 'bert', b.title])));
    }
    expectSameInBothModes(modes, runs);
  });

  it('slots list --start/--end and slots check --start read zone-less times in --tz', async () => {
    const list = await modes.both([
      'slots',
      'list',
      '--event-type',
      CALL.id,
      '--start',
      `${SPRING}T09:00`,
      '--end',
      `${SPRING}T10:00`,
      '--tz',
      'Europe/Berlin',
    ]);
    const check = await modes.both(['slots', 'check', '--event-type', CALL.id, '--start', `${SPRING}T12:00`, '--tz', 'Europe/Berlin']);
    expectSameInBothModes(modes, list, () =>
      success(
        tsv([
          [utc(SPRING, '07:00'), utc(SPRING, '07:30')],
          [utc(SPRING, '07:30'), utc(SPRING, '08:00')],
        ]),
      ),
    );
    // Booked above as 12:00 Berlin: the check reads the same wall clock and finds it taken.
    expectSameInBothModes(modes, check, () => success(`available\tfalse\nreason\tslot_busy\nnext_available\t${utc(SPRING, '10:30')}\n`));
  });
});

describe('tokens create --expires-at (embedded: straight to the database)', () => {
  const create = (name: string, expires: string, tz: string) =>
    modes.embedded.run(
      ['tokens', 'create', '--user', 'bert', '--name', name, '--scope', 'slots:read', '--expires-at', expires, '--tz', tz, '--json'],
      {
        token: null,
      },
    );

  it('a zone-less time is read in --tz (in the gap: moved forward) and stored as UTC; a date means its first moment in --tz', async () => {
    expect(jsonOf(await create('gap', `${SPRING}T02:30`, 'Europe/Berlin')).expires_at).toBe(utc(SPRING, '01:30'));
    expect(jsonOf(await create('midnight', FALL, 'Asia/Tokyo')).expires_at).toBe(
      new Date(Date.parse(`${FALL}T00:00:00+09:00`)).toISOString(),
    );
  });

  it('one that is not a time exits 2 naming the flag, and no token is made', async () => {
    const run = await create('never', 'next week', 'UTC');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error usage: --expires-at next week is not a time; give one such as 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.\n',
    });
    const names = jsonOf(await modes.embedded.run(['tokens', 'list', '--json'], { token: null })).map((t: { name: string }) => t.name);
    expect(names).not.toContain('never');
  });
});

describe('--help says how a zone-less time is read', () => {
  it('the --tz option, the flags that take times, and the program help all say it', async () => {
    const [create, slots, root] = await Promise.all([
      runCli(['bookings', 'create', '--help']),
      runCli(['slots', 'list', '--help']),
      runCli(['--help']),
    ]);
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    expect(flat(create.stdout)).toContain('--start <iso> the start, such as 2026-12-08T09:00 (read in --tz) or 2026-12-08T09:00:00Z');
    expect(flat(create.stdout)).toContain('times typed without an offset are read in it');
    expect(flat(slots.stdout)).toContain('--start <iso> from (inclusive): a date, or a time (without an offset: in --tz)');
    expect(flat(root.stdout)).toContain(
      "Times typed without an offset (2026-12-09T11:00) are read in --tz, by default this machine's zone.",
    );
  });
});
