import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { jsonOf } from './support/cli-run.js';
import { HAS_SCRIPT } from './support/cli-tty.js';
import { api, expectPage } from './support/http.js';
import { BLOCKER_UID, dateAt, SERIES_SECRETS, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// Issue 11, item 10. Lists: when a page stops short of the end (has_more)
// and --all was not given, stderr says how to get the rest, piped and with
// --json too; after the last page, stderr stays empty. The agenda: times in
// the user's profile zone (whoami `timezone`) unless --tz, and a host column
// when it lists other people's meetings. ora (owner, Asia/Tokyo) sees hal's
// imported booking on Thursday of week 0 at 10:00 Tokyo; the machine's zone
// is pinned to New York, where that is still Wednesday.

const ORA = SERIES_SECRETS.ora;
const NEW_YORK = { TZ: 'America/New_York' };
/** On a terminal the agenda waits for keys (issue 29, item 11): q leaves it drawn. */
const QUIT = [{ after: 'q quit', keys: 'q' }];
let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
  // A second booking of hal's, so that the list has two pages of one.
  const made = await modes.both([
    'bookings',
    'create',
    '--event-type',
    SYNC.id,
    '--start',
    tokyoAt(3, '11:00'),
    '--attendee-email',
    'kim@example.com',
  ]);
  for (const name of MODE_NAMES) expect(made[name].code, made[name].stderr).toBe(0);
});

afterAll(async () => {
  await modes?.stop();
});

describe('a page with more after it says so on stderr', () => {
  it('piped and with --json: `more: pass --cursor <next_cursor> or --all`, the data unchanged on stdout', async () => {
    const [piped, json] = await Promise.all([
      modes.both(['bookings', 'list', '--limit', '1']),
      modes.both(['bookings', 'list', '--limit', '1', '--json']),
    ]);
    for (const name of MODE_NAMES) {
      const page = expectPage(await api(modes[name].api, '/v1/bookings?limit=1', { token: ORA }));
      const more = `more: pass --cursor ${page.nextCursor} or --all\n`;
      expect(piped[name]).toMatchObject({ code: 0, stderr: more });
      expect(piped[name].stdout.split('\t')[0]).toBe(page.items[0].uid);
      expect(json[name]).toMatchObject({ code: 0, stderr: more });
      expect(jsonOf(json[name])).toEqual(page.items);
    }
    expectSameInBothModes(modes, piped);
    expectSameInBothModes(modes, json);
  });

  it('the last page, and --all, print nothing on stderr', async () => {
    const runs = await Promise.all([
      modes.both(['bookings', 'list', '--limit', '2']),
      modes.both(['bookings', 'list', '--limit', '1', '--all', '--json']),
      modes.both(['series', 'list', '--json']),
    ]);
    for (const run of runs) for (const name of MODE_NAMES) expect(run[name]).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('schedule agenda', () => {
  const blocker = `${tokyoAt(3, '10:00')}\t${tokyoAt(3, '10:30')}\t${BLOCKER_UID}\thal\tblocker@example.com\tWeekly sync between Hal Host and Blocker`;

  it("piped, each line's day is the one in the profile's zone (Tokyo), not the machine's (New York); --tz still wins", async () => {
    const [profile, chosen] = await Promise.all([
      modes.both(['agenda', '--days', '30'], { env: NEW_YORK }),
      modes.both(['agenda', '--days', '30', '--tz', 'America/New_York']),
    ]);
    for (const name of MODE_NAMES) {
      expect(profile[name].code, profile[name].stderr).toBe(0);
      expect(profile[name].stdout.split('\n')[0]).toBe(`${dateAt(3)}\t${blocker}`);
      expect(chosen[name].stdout.split('\n')[0]).toBe(`${dateAt(2)}\t${blocker}`);
    }
    expectSameInBothModes(modes, profile);
  });

  it.skipIf(!HAS_SCRIPT)('on a terminal: times in the profile zone, and a host column for an owner who sees hal’s meetings', async () => {
    for (const name of MODE_NAMES) {
      const { code, screen } = await modes[name].runOnTty(['agenda', '--days', '30', '--no-color'], { env: NEW_YORK, answers: QUIT });
      expect(code, screen).toBe(0);
      expect(screen).toContain('Agenda, next 30 days (Asia/Tokyo)');
      expect(screen).toContain('  10:00–10:30  hal  Weekly sync between Hal Host and Blocker  blocker@example.com\n');
      const zoned = await modes[name].runOnTty(['agenda', '--days', '30', '--no-color', '--tz', 'UTC'], { answers: QUIT });
      expect(zoned.screen).toContain('Agenda, next 30 days (UTC)');
      expect(zoned.screen).toContain('  01:00–01:30  hal  Weekly sync between Hal Host and Blocker');
    }
  });

  it.skipIf(!HAS_SCRIPT)('on a terminal, the host’s own agenda has no host column: every meeting is his', async () => {
    const { code, screen } = await modes.remote.runOnTty(['agenda', '--days', '30', '--no-color'], {
      token: SERIES_SECRETS.hal,
      answers: QUIT,
    });
    expect(code, screen).toBe(0);
    expect(screen).toContain('  10:00–10:30  Weekly sync between Hal Host and Blocker  blocker@example.com\n');
  });

  it('--json is the bookings themselves, whatever the zone', async () => {
    const runs = await modes.both(['agenda', '--days', '30', '--json'], { env: NEW_YORK });
    for (const name of MODE_NAMES) {
      expect(runs[name].stderr).toBe('');
      expect(jsonOf(runs[name]).map((b: { start_at: string }) => b.start_at)).toEqual([tokyoAt(3, '10:00'), tokyoAt(3, '11:00')]);
    }
    expectSameInBothModes(modes, runs);
  });
  // Last: it cancels the second of hal's meetings, which the tests above list.
  it.skipIf(!HAS_SCRIPT)('on a terminal, ↓ c, a reason and y cancel the chosen meeting, in both modes; q leaves', async () => {
    for (const name of MODE_NAMES) {
      const { code, screen } = await modes[name].runOnTty(['agenda', '--days', '30', '--no-color'], {
        answers: [
          { after: 'q quit', keys: '\u001b[B' },
          { after: '› 11:00–11:30', keys: 'c' },
          { after: 'Reason (optional, sent to the attendee):', keys: 'The room is gone\r' },
          { after: '[y/N]', keys: 'y' },
          { after: '✓ Canceled', keys: 'q' },
        ],
      });
      expect(code, screen).toBe(0);
      expect(screen).toMatch(
        /✓ Canceled Weekly sync between Hal Host and kim@example.com on \w{3} \d+ \w{3} \d{4} 11:00–11:30 \(Asia\/Tokyo\)/,
      );
      const canceled = await modes[name].getAll('/v1/bookings?status=canceled');
      expect(canceled.map((b) => [b.start_at, b.cancellation_reason])).toEqual([[tokyoAt(3, '11:00'), 'The room is gone']]);
    }
  });
});
