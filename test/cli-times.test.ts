import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { jsonOf } from './support/cli-run.js';
import { dateAt, SERIES_SECRETS, SYNC, seriesWorkspace } from './support/series-workspace.js';

// docs/api/times.md through the real binary, embedded (`--db`) and remote
// (`--api-url`): `schedule times find` answers options on both clocks, held;
// `schedule times book` books one by its id; a bad flag is named as typed.
// hal works 09:00-17:00 in Tokyo; his only event type is Weekly sync.

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), SERIES_SECRETS.ora);
});

afterAll(async () => {
  await modes?.stop();
});

describe('schedule times', () => {
  it("finds hal's only type in a New York morning, held, on both clocks, and books the second option", async () => {
    const found = await modes.both([
      'times',
      'find',
      '--host',
      'hal',
      '--attendee-timezone',
      'America/New_York',
      '--from',
      dateAt(0),
      '--to',
      dateAt(4),
      '--part-of-day',
      'evening',
      '--count',
      '2',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      const options = jsonOf(found[name]);
      expect(options).toMatchObject({ event_type: { id: SYNC.id }, host_timezone: 'Asia/Tokyo', not_held_reason: null });
      // 17:00 in New York is 07:00 the next day in Tokyo: before hal's day starts; 19:00 is 09:00 there.
      expect(options.options[0].host_time).toMatch(/ 09:00 Asia\/Tokyo \(UTC\+09:00\)$/);
      expect(options.options[0].attendee_time).toMatch(/ 19:00 America\/New_York \(UTC-0[45]:00\)$/);
      const booked = jsonOf(
        await modes[name].run([
          'times',
          'book',
          options.options[1].option_id,
          '--attendee-email',
          'kim@example.com',
          '--attendee-timezone',
          'America/New_York',
          '--json',
        ]),
      );
      expect(booked).toMatchObject({ status: 'confirmed', start_at: options.options[1].start, hosts: ['hal'], warnings: [] });
      expect(await modes[name].get(`/v1/bookings/${booked.uid}`)).toMatchObject({ attendees: [{ email: 'kim@example.com' }] });
    }
  });

  it('shows a table of options for people, and names a bad flag as typed', async () => {
    for (const name of MODE_NAMES) {
      const table = await modes[name].run(['times', 'find', '--host', 'hal', '--from', dateAt(0), '--count', '1']);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(/^[0-9a-f-]{36}\t\S{3} \d{4}-\d{2}-\d{2} 09:00 Asia\/Tokyo \(UTC\+09:00\)\t/);
      const wrong = await modes[name].run(['times', 'find', '--host', 'hal', '--part-of-day', 'lunch']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/--part-of-day/);
    }
  });
});
