import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, type PerMode, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, jsonOf, runCli } from './support/cli-run.js';
import { HOST_VIEW, SERIES_SECRETS, STARTS_ON, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// Issue 29, item 11 and one bullet of item 13. `--host` is who hosts the
// meeting everywhere (whose calendar); the event type's owner is `--owner`
// (`--username`, the API's name, still works). In `bookings create` and
// `slots` the host is the event type's owner, so `--host` names it there
// as before. Errors name the flags typed, in every command family; a time
// the CLI cannot read is refused in the CLI's words, never with the API's
// "must name its offset" (the CLI reads zone-less times in --tz).
// The workspace is series-workspace.ts: hal owns the event type `sync`;
// ora (owner) acts for hal and gil; gil owns no event type.

const ORA = SERIES_SECRETS.ora;
const usage = (message: string): CliRun => failure(2, 'usage', message);
let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
});

afterAll(async () => {
  await modes?.stop();
});

const book = (...more: string[]) => ['bookings', 'create', '--attendee-email', 'kim@example.com', '--json', ...more];
const weekly = (...more: string[]) => [
  'series',
  'create',
  '--attendee-email',
  'pat@example.com',
  '--frequency',
  'weekly',
  '--weekdays',
  'fri',
  '--time',
  '15:00',
  '--starts-on',
  STARTS_ON,
  '--count',
  '2',
  '--json',
  ...more,
];

describe('--owner names the event type’s owner; --host who hosts the meeting', () => {
  it('bookings create --owner hal --event-slug sync books hal, as --host hal and --username hal do', async () => {
    const runs = await modes.both(book('--owner', 'hal', '--event-slug', 'sync', '--start', tokyoAt(1, '15:00')));
    for (const name of MODE_NAMES) expect(jsonOf(runs[name])).toMatchObject({ start_at: tokyoAt(1, '15:00'), host: { username: 'hal' } });
    expectSameInBothModes(modes, runs);
  });

  it('slots list --owner hal lists what --username hal lists', async () => {
    const window = ['--event-slug', 'sync', '--start', tokyoAt(2, '09:00'), '--end', tokyoAt(2, '10:00')];
    const [byOwner, byUsername] = await Promise.all([
      modes.both(['slots', 'list', '--owner', 'hal', ...window]),
      modes.both(['slots', 'list', '--username', 'hal', ...window]),
    ]);
    for (const name of MODE_NAMES) {
      expect(byOwner[name].code, byOwner[name].stderr).toBe(0);
      expect(byOwner[name]).toEqual(byUsername[name]);
    }
  });

  it("series create --host gil --owner hal --event-slug sync books hal's event type on gil's calendar", async () => {
    const runs = await modes.both(weekly('--host', 'gil', '--owner', 'hal', '--event-slug', 'sync'));
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name]).series).toMatchObject({ host: HOST_VIEW.gil, event_type: { id: SYNC.id } });
    }
  });

  it('series create --host hal --event-slug sync: without --owner, the event type is the host’s own', async () => {
    const runs = await modes.both(weekly('--host', 'hal', '--event-slug', 'sync', '--time', '16:00'));
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name]).series).toMatchObject({ host: HOST_VIEW.hal, event_type: { id: SYNC.id }, time: '16:00' });
    }
  });

  it('bookings create --event-type with --host gil exits 2: the event type’s owner hosts it, so --host would be ignored', async () => {
    const runs = await modes.both(book('--event-type', SYNC.id, '--host', 'gil', '--start', tokyoAt(1, '16:00')));
    expectSameInBothModes(modes, runs, () =>
      usage('--event-type names the event type and so its owner, who hosts the meeting; leave out --host.'),
    );
    for (const name of MODE_NAMES) {
      const booked = await modes[name].getAll(
        `/v1/bookings?start_date=${encodeURIComponent(tokyoAt(1, '16:00'))}&end_date=${encodeURIComponent(tokyoAt(1, '16:00'))}`,
      );
      expect(booked).toEqual([]);
    }
  });

  it('refusals name the flags: two names for the owner, a slug without an owner, --owner with --event-type, no event type', async () => {
    const start = ['--start', tokyoAt(1, '16:30')];
    const [twoNames, hostAndOwner, slugAlone, ownerAndId, none, seriesNone] = await Promise.all([
      modes.both(book('--owner', 'hal', '--username', 'hal', '--event-slug', 'sync', ...start)),
      modes.both(['slots', 'list', '--host', 'hal', '--owner', 'hal', '--event-slug', 'sync', '--start', STARTS_ON, '--end', STARTS_ON]),
      modes.both(book('--event-slug', 'sync', ...start)),
      modes.both(book('--event-type', SYNC.id, '--owner', 'hal', ...start)),
      modes.both(['slots', 'check', '--start', tokyoAt(1, '16:30')]),
      modes.both(weekly('--host', 'hal')),
    ]);
    expectSameInBothModes(modes, twoNames, () => usage('--owner and --username both name the owner; give one of them.'));
    expectSameInBothModes(modes, hostAndOwner, () => usage('--host and --owner both name the owner; give one of them.'));
    expectSameInBothModes(modes, slugAlone, () => usage('--event-slug sync: whose event type is it? Add --owner <username>.'));
    expectSameInBothModes(modes, ownerAndId, () => usage('--event-type names the event type on its own; leave out --owner.'));
    const noEventType = usage('Name the event type: --event-type <id>, or --event-slug <slug> with --owner <username>.');
    expectSameInBothModes(modes, none, () => noEventType);
    expectSameInBothModes(modes, seriesNone, () => noEventType);
  });

  it('--help says what each flag names, and completion offers --owner; --username stays out of both', async () => {
    const flat = (run: CliRun) => run.stdout.replace(/\s+/g, ' ');
    const [bookingsCreate, seriesCreate, slotsList] = await Promise.all([
      runCli(['bookings', 'create', '--help']),
      runCli(['series', 'create', '--help']),
      runCli(['slots', 'list', '--help']),
    ]);
    expect(flat(bookingsCreate)).toContain("--owner <username-or-id> the event type's owner (with --event-slug)");
    expect(flat(bookingsCreate)).toContain("--host <username-or-id> who hosts it: the event type's owner, the same as --owner");
    expect(flat(seriesCreate)).toContain(
      '--host <username-or-id> who hosts the meetings: whose calendar to book (someone you may act for)',
    );
    expect(flat(seriesCreate)).toContain("--owner <username-or-id> the event type's owner (with --event-slug; default: the host)");
    for (const help of [bookingsCreate, seriesCreate, slotsList]) expect(help.stdout).not.toContain('--username');
    const bash = await runCli(['completion', 'bash']);
    expect(bash.stdout).toMatch(/'series create'\) echo '[^']*--owner\b/);
    expect(bash.stdout).not.toMatch(/'series create'\) echo '[^']*--username\b/);
  });

  it('series create --help shows examples: the host’s own event type, another owner’s, monthly, by id, and the wizard', async () => {
    const { stdout } = await runCli(['series', 'create', '--help']);
    const examples = stdout.slice(stdout.indexOf('\nExamples:\n'));
    expect(examples).toContain('schedule series create --host alice --event-slug weekly-sync');
    expect(examples).toContain('--host bob --owner alice --event-slug intro');
    expect(examples).toContain('--frequency monthly_same_day');
    expect(examples).toContain('--event-type <id>');
    expect(examples).toContain('On a terminal, schedule series create with none of these flags opens a wizard.');
    // Each example passes the parser and the CLI's own checks: without a token, each stops at the first call.
    const commands = examples
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((line) => line.trim().startsWith('schedule series create'))
      .map((line) => line.trim().split(/\s+/).slice(1));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    const runs = await Promise.all(commands.map((args) => runCli([...args, '--api-url', 'http://127.0.0.1:9'])));
    for (const run of runs) expect(run).toEqual(failure(4, 'unauthorized', 'No token: set SCHEDULE_TOKEN or pass --token.'));
  });
});

describe('errors name the flag the user typed, in every command family', () => {
  const uidOf = (run: CliRun) => jsonOf(run).uid as string;

  it('bookings: a cursor that is not valid names --cursor; an --if-match that is not a version is refused before any call', async () => {
    const made = await modes.both(book('--event-type', SYNC.id, '--start', tokyoAt(2, '15:00')));
    const [cursor, ifMatch] = await Promise.all([
      modes.both(['bookings', 'list', '--cursor', 'zzz']),
      modes.both((m) => ['bookings', 'update', uidOf(made[m.name]), '--if-match', 'abc', '--attendee-name', 'Kim']),
    ]);
    expectSameInBothModes(modes, cursor, () => failure(2, 'invalid_query_param', '--cursor: the cursor is not valid for this query.'));
    expectSameInBothModes(modes, ifMatch, () =>
      usage('--if-match abc is not a version; give the version you read, such as 3, or * for any.'),
    );
  });

  it('series: a field inside a sentence, a number that is not one, a resume --if-match that is not a version', async () => {
    const created = await modes.both(weekly('--host', 'hal', '--event-slug', 'sync', '--time', '11:00'));
    const uids: PerMode<string> = { embedded: '', remote: '' };
    for (const name of MODE_NAMES) uids[name] = jsonOf(created[name]).series.uid;
    const [gainLink, count, interval, resume] = await Promise.all([
      modes.both((m) => ['series', 'update', uids[m.name], '--location-url', 'https://meet.example.com/x']),
      modes.both(weekly('--host', 'hal', '--event-slug', 'sync', '--count', 'abc')),
      modes.both(weekly('--host', 'hal', '--event-slug', 'sync', '--interval-weeks', '1.5')),
      modes.both((m) => ['series', 'resume', uids[m.name], '--if-match', 'v2']),
    ]);
    expectSameInBothModes(modes, gainLink, () =>
      failure(2, 'invalid_change', 'A series created without a --location-url cannot gain one.'),
    );
    expectSameInBothModes(modes, count, () => usage('--count abc is not a whole number.'));
    expectSameInBothModes(modes, interval, () => usage('--interval-weeks 1.5 is not a whole number.'));
    expectSameInBothModes(modes, resume, () =>
      usage('--if-match v2 is not a version; give the version you read, such as 3, or * for any.'),
    );
  });

  it('slots and event-types: no event type named, a page size that is not a number', async () => {
    const [slots, limit] = await Promise.all([
      modes.both(['slots', 'list', '--start', STARTS_ON, '--end', STARTS_ON]),
      modes.both(['event-types', 'list', '--limit', 'ten']),
    ]);
    expectSameInBothModes(modes, slots, () =>
      usage('Name the event type: --event-type <id>, or --event-slug <slug> with --owner <username>.'),
    );
    expectSameInBothModes(modes, limit, () => usage('--limit ten is not a whole number.'));
  });

  it('webhooks: a cursor that is not valid names --cursor; an --if-match that is not a version is refused', async () => {
    const [cursor, ifMatch] = await Promise.all([
      modes.both(['webhooks', 'list', '--cursor', 'zzz']),
      modes.both(['webhooks', 'update', 'whk_nope', '--status', 'paused', '--if-match', 'latest']),
    ]);
    expectSameInBothModes(modes, cursor, () => failure(2, 'invalid_query_param', '--cursor: the cursor is not valid for this query.'));
    expectSameInBothModes(modes, ifMatch, () =>
      usage('--if-match latest is not a version; give the version you read, such as 3, or * for any.'),
    );
  });

  it('calendars add: an empty --busy names --busy, not busy_calendars', async () => {
    const runs = await modes.both(
      ['calendars', 'add', '--url', 'https://dav.example.com/', '--username', 'hal', '--password-env', 'DAV_PASSWORD', '--busy', ','],
      { env: { DAV_PASSWORD: 'secret-of-hal' } },
    );
    for (const name of MODE_NAMES) {
      expect(runs[name]).toMatchObject({ code: 2, stdout: '' });
      expect(runs[name].stderr).toMatch(/^error validation_error: --busy: /);
      expect(runs[name].stderr).not.toContain('busy_calendars');
    }
    expectSameInBothModes(modes, runs);
  });

  it('tokens and oauth-clients (the local database): a scope no token can have names --scope; a bad client names --name and --redirect-uri', async () => {
    const [scope, client] = await Promise.all([
      modes.embedded.run(['tokens', 'create', '--user', 'hal', '--name', 'bad-scope', '--scope', 'nope:x'], { token: null }),
      modes.embedded.run(['oauth-clients', 'create', '--name', '', '--redirect-uri', 'nope'], { token: null }),
    ]);
    expect(scope).toMatchObject({ code: 2, stdout: '' });
    expect(scope.stderr).toMatch(/^error validation_error: --scope: scopes must be some of: series:read, /);
    expect(client).toMatchObject({ code: 2, stdout: '' });
    expect(client.stderr).toMatch(/^error validation_error: --name: .*; --redirect-uri: /);
  });

  it('agenda: --days names itself', async () => {
    const runs = await modes.both(['agenda', '--days', 'many']);
    expectSameInBothModes(modes, runs, () => usage('--days must be a whole number from 1 to 366.'));
  });
});

describe('a time the CLI cannot read is refused in its words, never with "must name its offset" (item 13)', () => {
  it('a date for a flag that needs a time: give a time too, read in --tz', async () => {
    const runs = await modes.both(book('--event-type', SYNC.id, '--start', STARTS_ON));
    expectSameInBothModes(modes, runs, () =>
      usage(`--start ${STARTS_ON} is a date; give a time too, such as ${STARTS_ON}T09:00 (read in --tz) or ${STARTS_ON}T09:00:00Z.`),
    );
  });

  it('text that is no time, and a day no calendar has, for a flag that needs a time and one that takes dates', async () => {
    const [words, noSuchDay, listFrom] = await Promise.all([
      modes.both(['bookings', 'reschedule', '00000000-0000-4000-8000-000000000000', '--start', 'tomorrow']),
      modes.both(book('--event-type', SYNC.id, '--start', '2027-02-30T10:00')),
      modes.both(['bookings', 'list', '--from', 'yesterday']),
    ]);
    expectSameInBothModes(modes, words, () =>
      usage('--start tomorrow is not a time; give one such as 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.'),
    );
    expectSameInBothModes(modes, noSuchDay, () =>
      usage('--start 2027-02-30T10:00 is not a time; give one such as 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.'),
    );
    expectSameInBothModes(modes, listFrom, () =>
      usage(
        '--from yesterday is not a date or a time; give one such as 2027-01-31, 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.',
      ),
    );
    for (const run of [words, noSuchDay, listFrom]) for (const name of MODE_NAMES) expect(run[name].stderr).not.toContain('offset');
  });
});
