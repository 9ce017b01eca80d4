import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { failure, jsonOf } from './support/cli-run.js';
import { isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// `schedule bookings no-show` and the notice flags (`--cancel-notice`,
// `--reschedule-notice` on event types, `--override-notice` on cancel and
// reschedule), run as the binary, embedded and remote, on the wall clock.

const DEE = 'cli-noshow-secret-dee-all';
const IDS = {
  dee: 'd5000000-0000-4000-8000-000000000001',
  plain: 'd5e00000-0000-4000-8000-000000000001',
  strict: 'd5e00000-0000-4000-8000-000000000002',
};
const UIDS = {
  past: 'd5b00000-0000-4000-8000-000000000001',
  future: 'd5b00000-0000-4000-8000-000000000002',
  strict: 'd5b00000-0000-4000-8000-000000000003',
};
const everyDay = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['08:00', '18:00']]]));
const booking = (uid: string, slug: string, start: string) => ({
  uid,
  event_type: slug,
  host: 'dee',
  start,
  attendee: { email: 'guest@example.com', name: 'Guest', timezone: 'UTC' },
});

const workspace = {
  organization: { name: 'CLI no-shows' },
  users: [
    { id: IDS.dee, username: 'dee', email: 'dee@cli.test', name: 'Dee', timezone: 'UTC', schedule: { timezone: 'UTC', weekly: everyDay } },
  ],
  event_types: [
    { id: IDS.plain, owner: 'dee', slug: 'plain', name: 'Plain', duration_minutes: 30, minimum_notice_minutes: 0 },
    { id: IDS.strict, owner: 'dee', slug: 'strict', name: 'Strict', duration_minutes: 30, minimum_notice_minutes: 0 },
  ],
  tokens: [{ name: 'dee', user: 'dee', secret: DEE, scopes: [...ALL_SCOPES, 'event_types:write'] }],
  bookings: [
    booking(UIDS.past, 'plain', isoAt(-1, 10)),
    booking(UIDS.future, 'plain', isoAt(5, 10)),
    booking(UIDS.strict, 'strict', isoAt(3, 10)),
  ],
};

let modes: CliModes;
beforeAll(async () => {
  modes = await startCliModes(workspace, DEE);
});
afterAll(async () => {
  await modes?.stop();
});

describe('schedule bookings no-show', () => {
  it('records a no-show with its reason, then --clear takes it back; both modes print the same', async () => {
    const marked = await modes.both(['bookings', 'no-show', UIDS.past, '--reason', 'Never joined', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(marked[name])).toMatchObject({ uid: UIDS.past, no_show_reason: 'Never joined', version: 2 });
      expect(await modes[name].get(`/v1/bookings/${UIDS.past}`)).toMatchObject({ no_show_reason: 'Never joined', version: 2 });
    }
    const cleared = await modes.both(['bookings', 'no-show', UIDS.past, '--clear', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(cleared[name])).toMatchObject({ no_show_at: null, no_show_reason: null, version: 3 });
    }
  });

  it('refuses a booking that has not started with exit 5 booking_not_started', async () => {
    const runs = await modes.both(['bookings', 'no-show', UIDS.future]);
    expectSameInBothModes(modes, runs, () =>
      failure(5, 'booking_not_started', 'The booking has not started yet, so nobody can have missed it.'),
    );
  });

  it('refuses --reason with --clear as a usage error, sending nothing', async () => {
    const runs = await modes.both(['bookings', 'no-show', UIDS.past, '--clear', '--reason', 'x']);
    expectSameInBothModes(modes, runs, () => failure(2, 'usage', '--reason and --clear cannot be used together.'));
  });
});

describe('notice flags', () => {
  it('event-types update --cancel-notice/--reschedule-notice set the fields; a cancel inside it is exit 5 cancel_notice until --override-notice', async () => {
    const updated = await modes.both([
      'event-types',
      'update',
      IDS.strict,
      '--cancel-notice',
      '10080',
      '--reschedule-notice',
      '60',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      expect(jsonOf(updated[name])).toMatchObject({ cancel_notice_minutes: 10080, reschedule_notice_minutes: 60 });
    }
    const refused = await modes.both(['bookings', 'cancel', UIDS.strict]);
    expectSameInBothModes(modes, refused, () =>
      failure(5, 'cancel_notice', "This booking can no longer be canceled: its event type asks for 10080 minutes' notice."),
    );
    const canceled = await modes.both(['bookings', 'cancel', UIDS.strict, '--override-notice', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(canceled[name])).toMatchObject({ status: 'canceled' });
  });

  it('a bad --cancel-notice is refused (exit 2) naming the flag', async () => {
    const runs = await modes.both(['event-types', 'update', IDS.plain, '--cancel-notice', '-5']);
    for (const name of MODE_NAMES) {
      expect(runs[name].code).toBe(2);
      expect(runs[name].stderr).toContain('--cancel-notice');
    }
  });
});
