import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliModes,
  expectSameInBothModes,
  MODE_NAMES,
  type ModeName,
  type PerMode,
  SOURCE_OF,
  startCliModes,
} from './support/cli-modes.js';
import { failure, jsonOf, objectLines, success, tsv } from './support/cli-run.js';
import {
  dateAt,
  HOST_VIEW,
  SERIES_SECRETS,
  SERIES_USERS,
  STARTS_ON,
  SYNC,
  seriesWorkspace,
  skippedAt,
  tokyoAt,
} from './support/series-workspace.js';

// Issue 6: every `schedule series` command as the real binary, piped,
// embedded and remote, asserting stdout, stderr and exit code. S1 books
// Mondays and Thursdays at 10:00 Tokyo four times from STARTS_ON: Thursday
// of week 0 is taken by the workspace's imported booking, so it is skipped
// (not shifted) and three are booked. S2 (Mondays from week 1) then finds
// Monday of week 1 taken by S1 and books Monday of week 2.

const ORA = SERIES_SECRETS.ora;
let modes: CliModes;
const s1: PerMode<string> = { embedded: '', remote: '' };
const s2: PerMode<string> = { embedded: '', remote: '' };

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
});

afterAll(async () => {
  await modes?.stop();
});

const create = (...more: string[]) => [
  'series',
  'create',
  '--host',
  SERIES_USERS.hal,
  '--event-type',
  SYNC.id,
  '--attendee-email',
  'pat@example.com',
  '--attendee-name',
  'Pat Lee',
  '--frequency',
  'weekly',
  '--time',
  '10:00',
  ...more,
];

/** The occurrences of a series over HTTP, as the create answer lists them: `{ uid, start_at, end_at, status }` in start order. */
async function occurrencesOf(name: ModeName, uid: string): Promise<Record<string, string>[]> {
  const bookings = await modes[name].getAll(`/v1/bookings?series_id=${uid}&sort=start_at_asc`);
  return bookings.map((b) => ({ uid: b.uid, start_at: b.start_at, end_at: b.end_at, status: b.status }));
}

/** A series as `series list` prints it when piped. */
function seriesLine(s: Record<string, any>): string {
  return tsv([
    [s.uid, s.status, `weekly ${s.weekdays.join(',')}`, `${s.time} ${s.timezone}`, s.starts_on, s.count, s.host.username, s.attendee.email],
  ]);
}

// Issue 29 item 2: the create's dry run, with the create's own flags, before S1 is created.
describe('series preview', () => {
  const preview = (...more: string[]) => ['series', 'preview', ...create(...more).slice(2)];
  const booked = [0, 7, 10].map((d) => [dateAt(d), tokyoAt(d, '10:00')] as const);

  it('piped: one `occurrence<TAB>date<TAB>start<TAB>end` line per date it would book, one `skipped` line with the cause per date it would skip; nothing is created', async () => {
    const runs = await modes.both(preview('--weekdays', 'mon,thu', '--starts-on', STARTS_ON, '--count', '4'));
    const end = (start: string) => new Date(Date.parse(start) + SYNC.duration * 60_000).toISOString();
    const expected =
      tsv(booked.map(([date, start]) => ['occurrence', date, start, end(start)])) +
      `skipped\t${dateAt(3)}\t${tokyoAt(3, '10:00')}\tconflict\tbusy\n`;
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(success(expected));
      expect(await modes[name].getAll('/v1/series')).toEqual([]);
    }
    expectSameInBothModes(modes, runs);
  });

  it("--json prints the API's preview data; a weekend-only pattern exits 5 with no_dates_free", async () => {
    const runs = await modes.both(preview('--weekdays', 'mon,thu', '--starts-on', STARTS_ON, '--count', '4', '--json'));
    for (const name of MODE_NAMES) {
      const printed = jsonOf(runs[name]);
      expect(printed.timezone).toBe('Asia/Tokyo');
      expect(printed.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual(booked.map(([, start]) => start));
      expect(printed.skipped).toEqual([skippedAt(3, '10:00')]);
    }
    const weekend = await modes.both(preview('--weekdays', 'sat,sun', '--starts-on', STARTS_ON, '--count', '2'));
    for (const name of MODE_NAMES) {
      expect(weekend[name]).toEqual(failure(5, 'no_dates_free', 'The host is free on none of the pattern dates; nothing was created.'));
    }
  });
});

describe('series create', () => {
  it('prints the series as key<TAB>value lines, then one `occurrence` line per booking and one `skipped<TAB>date<TAB>start<TAB>conflict<TAB>cause` line per skipped date', async () => {
    const runs = await modes.both(create('--weekdays', 'mon,thu', '--starts-on', STARTS_ON, '--count', '4'));
    for (const name of MODE_NAMES) {
      s1[name] = /^uid\t(.+)$/m.exec(runs[name].stdout)?.[1] ?? '';
      const series = await modes[name].get(`/v1/series/${s1[name]}`);
      expect(series).toMatchObject({ version: 1, status: 'active', count: 4, host: HOST_VIEW.hal, source: SOURCE_OF[name] });
      const occurrences = await occurrencesOf(name, s1[name]);
      expect(occurrences.map((o) => o.start_at)).toEqual([tokyoAt(0, '10:00'), tokyoAt(7, '10:00'), tokyoAt(10, '10:00')]);
      const expected =
        objectLines(series) +
        tsv(occurrences.map((o) => ['occurrence', o.uid, o.start_at, o.end_at, o.status])) +
        `skipped\t${dateAt(3)}\t${tokyoAt(3, '10:00')}\tconflict\tbusy\n`;
      expect(runs[name]).toEqual(success(expected));
    }
    expectSameInBothModes(modes, runs);
  });

  it("--json prints exactly the API's create data: { series (= GET /v1/series/:uid), occurrences, skipped }", async () => {
    const runs = await modes.both(create('--weekdays', 'mon', '--starts-on', dateAt(7), '--count', '2', '--json'));
    for (const name of MODE_NAMES) {
      const printed = jsonOf(runs[name]);
      s2[name] = printed.series.uid;
      expect(Object.keys(printed)).toEqual(['series', 'occurrences', 'skipped']);
      expect(printed.series).toEqual(await modes[name].get(`/v1/series/${s2[name]}`));
      expect(printed.series.source).toBe(SOURCE_OF[name]);
      expect(printed.occurrences).toEqual(await occurrencesOf(name, s2[name]));
      expect(printed.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual([tokyoAt(14, '10:00')]);
      expect(printed.skipped).toEqual([skippedAt(7, '10:00')]);
      expect(runs[name].stderr).toBe('');
    }
    expectSameInBothModes(modes, runs);
  });

  it('a missing required flag exits 2 naming it; nothing on stdout', async () => {
    const runs = await modes.both(create('--weekdays', 'mon', '--starts-on', STARTS_ON));
    expectSameInBothModes(modes, runs, () => ({
      code: 2,
      stdout: '',
      stderr: "error usage: required option '--count <n>' not specified\n(run with --help for usage)\n",
    }));
  });

  it('--count 43 exits 2: error count_out_of_range', async () => {
    const runs = await modes.both(create('--weekdays', 'mon', '--starts-on', STARTS_ON, '--count', '43'));
    expectSameInBothModes(modes, runs, () => failure(2, 'count_out_of_range', '--count must be 1 to 42.'));
  });

  it('a token with series:read only exits 4: error insufficient_scope', async () => {
    const runs = await modes.both(create('--weekdays', 'mon', '--starts-on', STARTS_ON, '--count', '1'), { token: SERIES_SECRETS.oraRead });
    expectSameInBothModes(modes, runs, () => failure(4, 'insufficient_scope', 'This token lacks the scope series:write.'));
  });
});

describe('series list, get, and the occurrences through bookings list --series', () => {
  it('series list prints one line per series (uid, status, pattern, time and zone, from, count, host, attendee), newest first', async () => {
    const runs = await modes.both(['series', 'list']);
    for (const name of MODE_NAMES) {
      const [second, first] = [await modes[name].get(`/v1/series/${s2[name]}`), await modes[name].get(`/v1/series/${s1[name]}`)];
      expect(runs[name]).toEqual(success(seriesLine(second) + seriesLine(first)));
      expect(runs[name].stdout.split('\n')[1]).toBe(
        `${s1[name]}\tactive\tweekly mon,thu\t10:00 Asia/Tokyo\t${STARTS_ON}\t4\thal\tpat@example.com`,
      );
    }
    expectSameInBothModes(modes, runs);
  });

  it('filters and --all --limit 1 --json: every page as one array, equal to GET /v1/series with the same query', async () => {
    const query = ['--status', 'active,paused', '--host', SERIES_USERS.hal, '--event-type', SYNC.id];
    const all = await modes.both(['series', 'list', ...query, '--all', '--limit', '1', '--json']);
    const ended = await modes.both(['series', 'list', '--status', 'ended']);
    for (const name of MODE_NAMES) {
      const expected = await modes[name].getAll(
        `/v1/series?status=active,paused&host_user_id=${SERIES_USERS.hal}&event_type_id=${SYNC.id}`,
      );
      expect(expected.map((s) => s.uid)).toEqual([s2[name], s1[name]]);
      expect(jsonOf(all[name])).toEqual(expected);
      expect(ended[name]).toEqual(success(''));
    }
    expectSameInBothModes(modes, all);
    expectSameInBothModes(modes, ended);
  });

  it('series get prints key<TAB>value lines equal to GET; --json is the data itself', async () => {
    const lines = await modes.both((m) => ['series', 'get', s1[m.name]]);
    const json = await modes.both((m) => ['series', 'get', s1[m.name], '--json']);
    for (const name of MODE_NAMES) {
      const series = await modes[name].get(`/v1/series/${s1[name]}`);
      expect(lines[name]).toEqual(success(objectLines(series)));
      expect(jsonOf(json[name])).toEqual(series);
    }
    expectSameInBothModes(modes, lines);
    expectSameInBothModes(modes, json);
  });

  it('bookings list --series lists the occurrences of one series', async () => {
    const runs = await modes.both((m) => ['bookings', 'list', '--series', s1[m.name], '--sort', 'start_at_asc']);
    for (const name of MODE_NAMES) {
      const bookings = await modes[name].getAll(`/v1/bookings?series_id=${s1[name]}&sort=start_at_asc`);
      expect(bookings).toHaveLength(3);
      expect(runs[name]).toEqual(success(tsv(bookings.map((b) => [b.uid, b.start_at, b.end_at, b.status, 'hal', b.title]))));
    }
    expectSameInBothModes(modes, runs);
  });

  it('an unknown uid exits 3: error series_not_found', async () => {
    const runs = await modes.both(['series', 'get', 'a5000000-0000-4000-8000-00000000dead']);
    expectSameInBothModes(modes, runs, () => failure(3, 'series_not_found', 'No series with this uid.'));
  });
});

describe('series actions on S1: pause, resume, update, move, end', () => {
  const action = (args: (uid: string) => string[]) => modes.both((m) => args(s1[m.name]));
  const versionOf = async (name: ModeName) => (await modes[name].get(`/v1/series/${s1[name]}`)).version as number;

  it('pause prints held and superseded; the series is paused', async () => {
    const runs = await action((uid) => ['series', 'pause', uid]);
    for (const name of MODE_NAMES) expect((await modes[name].get(`/v1/series/${s1[name]}`)).status).toBe('paused');
    expectSameInBothModes(modes, runs, () => success('held\t3\nsuperseded\tfalse\n'));
  });

  it('resume --if-match with a version the pause overtook exits 5: error version_conflict', async () => {
    const runs = await action((uid) => ['series', 'resume', uid, '--if-match', '1']);
    expectSameInBothModes(modes, runs, () =>
      failure(5, 'version_conflict', 'The series changed since it was read; read it again and retry.'),
    );
  });

  it('resume books a replacement per held occurrence: created, skipped (none), owed, superseded', async () => {
    const runs = await action((uid) => ['series', 'resume', uid]);
    for (const name of MODE_NAMES) expect(await modes[name].get(`/v1/series/${s1[name]}`)).toMatchObject({ status: 'active', version: 3 });
    expectSameInBothModes(modes, runs, () => success('created\t3\nskipped\t\nowed\t0\nsuperseded\tfalse\n'));
  });

  it('update --time reads If-Match itself and prints the series lines and a `resumed` line', async () => {
    const runs = await action((uid) => ['series', 'update', uid, '--time', '11:00']);
    for (const name of MODE_NAMES) {
      const series = await modes[name].get(`/v1/series/${s1[name]}`);
      expect(series).toMatchObject({ time: '11:00', version: 4, status: 'active' });
      const resumed = { created: 3, skipped: [], owed: 0, superseded: false };
      expect(runs[name]).toEqual(success(objectLines({ ...series, resumed })));
    }
    expectSameInBothModes(modes, runs);
  });

  it('update --no-notify --json prints { series, resumed: null } with the series as GET shows it', async () => {
    const runs = await action((uid) => ['series', 'update', uid, '--no-notify', '--json']);
    for (const name of MODE_NAMES) {
      const series = await modes[name].get(`/v1/series/${s1[name]}`);
      expect(series).toMatchObject({ notify_invitee: false, version: 5 });
      expect(jsonOf(runs[name])).toEqual({ series, resumed: null });
    }
    expectSameInBothModes(modes, runs);
  });

  it('update --if-match with a stale version exits 5: error version_conflict, and changes nothing', async () => {
    const runs = await action((uid) => ['series', 'update', uid, '--if-match', '4', '--time', '12:00']);
    for (const name of MODE_NAMES) expect(await versionOf(name)).toBe(5);
    expectSameInBothModes(modes, runs, () =>
      failure(5, 'version_conflict', 'The series changed since it was read; read it again and retry.'),
    );
  });

  it('move to a host the token may not act for exits 4: error host_not_allowed', async () => {
    const runs = await modes.both((m) => ['series', 'move', s2[m.name], '--host', SERIES_USERS.gil], { token: SERIES_SECRETS.hal });
    expectSameInBothModes(modes, runs, () => failure(4, 'host_not_allowed', '--host is not someone this caller may act for.'));
  });

  it('move --host gil moves every future occurrence, then the series', async () => {
    const runs = await action((uid) => ['series', 'move', uid, '--host', SERIES_USERS.gil]);
    for (const name of MODE_NAMES) expect((await modes[name].get(`/v1/series/${s1[name]}`)).host).toEqual(HOST_VIEW.gil);
    expectSameInBothModes(modes, runs, () => success('moved\t3\nunchanged\t0\nstopped_by\t\nsuperseded\tfalse\n'));
  });

  it('end cancels the future occurrences; a second end exits 5: error series_ended', async () => {
    const first = await action((uid) => ['series', 'end', uid]);
    const again = await action((uid) => ['series', 'end', uid]);
    const ended = await modes.both(['series', 'list', '--status', 'ended']);
    for (const name of MODE_NAMES) {
      const series = await modes[name].get(`/v1/series/${s1[name]}`);
      expect(series).toMatchObject({ status: 'ended', host: HOST_VIEW.gil, time: '11:00' });
      expect(ended[name]).toEqual(success(seriesLine(series)));
    }
    expectSameInBothModes(modes, first, () => success('canceled\t3\nsuperseded\tfalse\n'));
    expectSameInBothModes(modes, again, () => failure(5, 'series_ended', 'The series is ended; nothing can change it.'));
    expectSameInBothModes(modes, ended);
  });
});
