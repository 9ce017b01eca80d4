import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { failure, jsonOf } from './support/cli-run.js';
import { SERIES_SECRETS, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// Issue 29, item 11: `schedule bookings get|cancel|reschedule|update` take a
// unique start of a booking's uid (at least 4 characters), as git takes a
// short commit id, in both modes. The CLI asks the API for the bookings the
// caller can see whose uid starts so (`GET /v1/bookings?uid_prefix=`, one
// page): one is the booking; two or more exit 2 naming them; none is
// booking_not_found, the same for a booking the caller may not see.

const ORA = SERIES_SECRETS.ora;
const HAL = SERIES_SECRETS.hal;
const UID = {
  first: 'c0ffee00-0000-4000-8000-000000000001',
  second: 'c0ffee00-0000-4000-8000-000000000002',
  unique: 'c0ffee11-0000-4000-8000-000000000003',
  gils: 'beef0000-0000-4000-8000-000000000004',
} as const;

let modes: CliModes;

beforeAll(async () => {
  const workspace = seriesWorkspace();
  // gil's own event type, for a booking hal may not see.
  const gilsType = {
    ...(workspace.event_types as Record<string, unknown>[])[0],
    id: 'a5e00000-0000-4000-8000-0000000000c1',
    owner: 'gil',
    slug: 'chat',
    name: 'Chat',
  };
  workspace.event_types = [...(workspace.event_types as unknown[]), gilsType];
  const booking = (uid: string, host: string, start: string, email: string) => ({
    uid,
    event_type: host === 'gil' ? 'chat' : SYNC.slug,
    host,
    start,
    attendee: { email, name: email.split('@')[0], timezone: 'Asia/Tokyo' },
  });
  workspace.bookings = [
    ...(workspace.bookings as unknown[]),
    booking(UID.first, 'hal', tokyoAt(1, '09:00'), 'ann@example.com'),
    booking(UID.second, 'hal', tokyoAt(1, '09:30'), 'ben@example.com'),
    booking(UID.unique, 'hal', tokyoAt(1, '10:00'), 'cat@example.com'),
    booking(UID.gils, 'gil', tokyoAt(1, '11:00'), 'dan@example.com'),
  ];
  modes = await startCliModes(workspace, ORA);
});

afterAll(async () => {
  await modes?.stop();
});

describe('a unique start of a uid stands for the booking', () => {
  it('bookings get c0ffee11 prints what the whole uid prints, whatever the case typed', async () => {
    const [whole, short, upper] = await Promise.all([
      modes.both(['bookings', 'get', UID.unique]),
      modes.both(['bookings', 'get', 'c0ffee11']),
      modes.both(['bookings', 'get', 'C0FFEE11-0000']),
    ]);
    for (const name of MODE_NAMES) {
      expect(whole[name].code, whole[name].stderr).toBe(0);
      expect(whole[name].stdout).toContain(`uid\t${UID.unique}\n`);
      expect(short[name]).toEqual(whole[name]);
      expect(upper[name]).toEqual(whole[name]);
    }
    expectSameInBothModes(modes, short);
  });

  it('update, reschedule and cancel act on the booking the short uid names', async () => {
    const update = await modes.both(['bookings', 'update', 'c0ffee11', '--attendee-name', 'Cat Stevens', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(update[name])).toMatchObject({ uid: UID.unique, version: 2 });
    const moved = await modes.both(['bookings', 'reschedule', 'c0ffee1', '--start', tokyoAt(1, '14:00'), '--json']);
    for (const name of MODE_NAMES)
      expect(jsonOf(moved[name])).toMatchObject({ uid: UID.unique, start_at: tokyoAt(1, '14:00'), version: 3 });
    const canceled = await modes.both(['bookings', 'cancel', 'c0ffee11-', '--reason', 'Plans changed', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(canceled[name])).toMatchObject({ uid: UID.unique, status: 'canceled', cancellation_reason: 'Plans changed' });
      expect(await modes[name].get(`/v1/bookings/${UID.unique}`)).toMatchObject({ status: 'canceled', version: 4 });
    }
  });
});

describe('a short uid that is not unique, not there, or too short', () => {
  it('two bookings start so: exit 2, error ambiguous_uid, each named with its start, status and title', async () => {
    const runs = await modes.both(['bookings', 'cancel', 'c0ffee00']);
    const line = (uid: string, start: string, who: string) => `  ${uid}  ${start}  confirmed  Weekly sync between Hal Host and ${who}`;
    expectSameInBothModes(modes, runs, () => ({
      code: 2,
      stdout: '',
      stderr: [
        'error ambiguous_uid: short uid c0ffee00 is ambiguous; give more of it. It starts these bookings:',
        line(UID.first, tokyoAt(1, '09:00'), 'ann'),
        line(UID.second, tokyoAt(1, '09:30'), 'ben'),
        '',
      ].join('\n'),
    }));
    for (const name of MODE_NAMES) expect(await modes[name].get(`/v1/bookings/${UID.first}`)).toMatchObject({ status: 'confirmed' });
  });

  it('none the caller can see: booking_not_found, alike for a booking of someone they do not act for and for no booking', async () => {
    const notSeen = await modes.both(['bookings', 'get', 'beef'], { token: HAL });
    const nothing = await modes.both(['bookings', 'get', 'dead'], { token: HAL });
    expectSameInBothModes(modes, notSeen, () => failure(3, 'booking_not_found', 'No booking you can see has a uid starting with beef.'));
    expectSameInBothModes(modes, nothing, () => failure(3, 'booking_not_found', 'No booking you can see has a uid starting with dead.'));
    const seen = await modes.both(['bookings', 'get', 'beef', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(seen[name]).uid).toBe(UID.gils);
  });

  it('fewer than 4 characters exit 2 before anything is asked; what is no uid at all goes to the API as typed', async () => {
    const [short, word] = await Promise.all([modes.both(['bookings', 'get', 'c0f']), modes.both(['bookings', 'get', 'latest'])]);
    expectSameInBothModes(modes, short, () =>
      failure(2, 'usage', 'c0f is too short to pick a booking by; give at least 4 characters of its uid.'),
    );
    expectSameInBothModes(modes, word, () => failure(3, 'booking_not_found', 'No booking with this uid.'));
  });
});
