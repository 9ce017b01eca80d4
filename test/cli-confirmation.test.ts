import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, type PerMode, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, jsonOf, objectLines } from './support/cli-run.js';
import { SERIES_SECRETS, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// `schedule bookings confirm` and `schedule bookings decline` run as the real
// binary, embedded (`--db`) and remote (`--api-url`), on the series workspace
// with its event type requiring confirmation; ora (the owner) acts for hal.

let modes: CliModes;
const made: PerMode<{ a: string; b: string }> = { embedded: { a: '', b: '' }, remote: { a: '', b: '' } };

beforeAll(async () => {
  const workspace = seriesWorkspace();
  const [sync] = workspace.event_types as Record<string, unknown>[];
  workspace.event_types = [{ ...sync, requires_confirmation: true }];
  modes = await startCliModes(workspace, SERIES_SECRETS.ora);
});

afterAll(async () => {
  await modes?.stop();
});

const uidOf = (run: CliRun) => /^uid\t(.+)$/m.exec(run.stdout)?.[1] ?? '';
const create = (start: string) => ['bookings', 'create', '--event-type', SYNC.id, '--start', start, '--attendee-email', 'kim@example.com'];

describe('bookings confirm and decline', () => {
  it('bookings create on the type prints a pending booking', async () => {
    const a = await modes.both(create(tokyoAt(1, '11:00')));
    const b = await modes.both(create(tokyoAt(1, '12:00')));
    for (const name of MODE_NAMES) {
      made[name] = { a: uidOf(a[name]), b: uidOf(b[name]) };
      expect(await modes[name].get(`/v1/bookings/${made[name].a}`)).toMatchObject({ status: 'pending', version: 1 });
    }
  });

  it('bookings confirm prints the confirmed booking, as GET answers it', async () => {
    const runs = await modes.both((m) => ['bookings', 'confirm', made[m.name].a, '--if-match', '1']);
    for (const name of MODE_NAMES) {
      const stored = await modes[name].get(`/v1/bookings/${made[name].a}`);
      expect(stored).toMatchObject({ status: 'confirmed', version: 2 });
      expect(runs[name]).toEqual({ code: 0, stdout: objectLines(stored), stderr: '' });
    }
    expectSameInBothModes(modes, runs);
  });

  it('bookings decline --reason prints the declined booking with its reason (--json)', async () => {
    const runs = await modes.both((m) => ['bookings', 'decline', made[m.name].b, '--reason', 'Away that day', '--json']);
    for (const name of MODE_NAMES) {
      const stored = await modes[name].get(`/v1/bookings/${made[name].b}`);
      expect(stored).toMatchObject({ status: 'declined', version: 2, cancellation_reason: 'Away that day' });
      expect(jsonOf(runs[name])).toEqual(stored);
    }
    expectSameInBothModes(modes, runs);
  });

  it('confirming a booking that is not pending exits 5 with booking_not_pending', async () => {
    const runs = await modes.both((m) => ['bookings', 'confirm', made[m.name].b]);
    expectSameInBothModes(modes, runs, () =>
      failure(5, 'booking_not_pending', 'Only a pending booking can be confirmed or declined; this one is declined.'),
    );
  });
});
