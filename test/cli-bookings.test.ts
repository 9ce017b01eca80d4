import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, type ModeName, type PerMode, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, jsonOf, objectLines, runCli, success, tsv } from './support/cli-run.js';
import { api, expectPage } from './support/http.js';
import { closedPort } from './support/ics-server.js';
import { BLOCKER_UID, SERIES_SECRETS, SERIES_USERS, SYNC, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// Issue 6: every `schedule bookings` command run as the real binary, piped,
// embedded (`--db`) and remote (`--api-url` of `schedule serve`), asserting
// stdout, stderr and exit code; the two modes must print the same. The
// workspace is series-workspace.ts: hal works Monday to Friday 09:00-17:00
// Tokyo, and an imported booking blocks Thursday of week 0 at 10:00.

const ORA = SERIES_SECRETS.ora;
/** Tuesday of week 0, Tokyo: three free half hours. */
const A_START = tokyoAt(1, '11:00');
const B_START = tokyoAt(1, '12:00');
const C_START = tokyoAt(1, '13:00');
/** Where B is rescheduled to: Wednesday 11:00. */
const B_MOVED = tokyoAt(2, '11:00');

let modes: CliModes;
/** The uids each mode's creates got. */
const made: PerMode<Record<'a' | 'b' | 'c', string>> = { embedded: { a: '', b: '', c: '' }, remote: { a: '', b: '', c: '' } };

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
});

afterAll(async () => {
  await modes?.stop();
});

const create = (start: string, email: string, ...more: string[]) => [
  'bookings',
  'create',
  '--event-type',
  SYNC.id,
  '--start',
  start,
  '--attendee-email',
  email,
  ...more,
];

/** A booking as `bookings list` prints it when piped. */
function listLines(bookings: readonly Record<string, any>[]): string {
  return tsv(bookings.map((b) => [b.uid, b.start_at, b.end_at, b.status, b.host.username, b.title]));
}

const uidOf = (run: CliRun) => /^uid\t(.+)$/m.exec(run.stdout)?.[1] ?? '';

describe('writes: create, update, reschedule, cancel', () => {
  it('bookings create prints the new booking as key<TAB>value lines, no heading, exactly what GET /v1/bookings/:uid answers', async () => {
    const runs = await modes.both(
      create(
        A_START,
        'kim@example.com',
        '--attendee-name',
        'Kim Lee',
        '--attendee-timezone',
        'America/New_York',
        '--timezone',
        'Europe/Paris',
        '--guest',
        'g1@example.com',
        '--guest',
        'g2@example.com',
        '--metadata',
        '{"crm":"x-1"}',
      ),
    );
    for (const name of MODE_NAMES) {
      made[name].a = uidOf(runs[name]);
      const stored = await modes[name].get(`/v1/bookings/${made[name].a}`);
      expect(stored).toMatchObject({
        version: 1,
        status: 'confirmed',
        start_at: A_START,
        timezone: 'Europe/Paris',
        host: { user_id: SERIES_USERS.hal, username: 'hal' },
        attendees: [{ email: 'kim@example.com', name: 'Kim Lee', timezone: 'America/New_York' }],
        guests: [{ email: 'g1@example.com' }, { email: 'g2@example.com' }],
        metadata: { crm: 'x-1' },
      });
      expect(runs[name]).toEqual(success(objectLines(stored)));
      expect(runs[name].stdout.split('\n', 2)[0]).toBe(`uid\t${made[name].a}`);
    }
    expectSameInBothModes(modes, runs);
  });

  it("bookings create --json prints exactly the API's data: deep-equal to GET /v1/bookings/:uid", async () => {
    const runs = await modes.both(create(B_START, 'sam@example.com', '--attendee-name', 'Sam Ray', '--responses', '{}', '--json'));
    for (const name of MODE_NAMES) {
      const printed = jsonOf(runs[name]);
      made[name].b = printed.uid;
      expect(printed).toMatchObject({ version: 1, start_at: B_START, title: 'Weekly sync between Hal Host and Sam Ray' });
      expect(printed).toEqual(await modes[name].get(`/v1/bookings/${printed.uid}`));
      expect(runs[name].stderr).toBe('');
    }
    expectSameInBothModes(modes, runs);
  });

  it('--idempotency-key K sent twice: the second create replays the first (same uid, same output), one booking is made; --verbose shows the mode and K', async () => {
    const args = create(C_START, 'kim@example.com', '--idempotency-key', 'cli-bookings-replay-1', '--json', '--verbose');
    const first = await modes.both(args);
    const second = await modes.both(args);
    for (const name of MODE_NAMES) {
      expect(first[name].stderr).toBe(`mode: ${name}\nidempotency-key: cli-bookings-replay-1\n`);
      expect(second[name]).toEqual(first[name]);
      made[name].c = jsonOf(first[name]).uid;
      const atC = await modes[name].getAll(`/v1/bookings?start_date=${C_START}&end_date=${C_START}`);
      expect(atC.map((b) => b.uid)).toEqual([made[name].c]);
    }
    expectSameInBothModes(modes, first);
  });

  it('bookings update reads the version itself for If-Match; --json is the updated booking (version 2, metadata merged)', async () => {
    const runs = await modes.both((m) => [
      'bookings',
      'update',
      made[m.name].a,
      '--metadata',
      '{"stage":"won"}',
      '--attendee-name',
      'Kim L.',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      const printed = jsonOf(runs[name]);
      expect(printed).toMatchObject({ version: 2, metadata: { crm: 'x-1', stage: 'won' }, attendees: [{ name: 'Kim L.' }] });
      expect(printed).toEqual(await modes[name].get(`/v1/bookings/${made[name].a}`));
    }
    expectSameInBothModes(modes, runs);
  });

  it('bookings update --if-match with a stale version exits 5 with error version_conflict and changes nothing', async () => {
    const runs = await modes.both((m) => ['bookings', 'update', made[m.name].a, '--if-match', '1', '--attendee-name', 'Kim Stale']);
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(failure(5, 'version_conflict', 'The booking is at version 2.'));
      expect(await modes[name].get(`/v1/bookings/${made[name].a}`)).toMatchObject({ version: 2, attendees: [{ name: 'Kim L.' }] });
    }
    expectSameInBothModes(modes, runs);
  });

  it('bookings reschedule moves the start and keeps the length; --json deep-equals GET', async () => {
    const runs = await modes.both((m) => ['bookings', 'reschedule', made[m.name].b, '--start', B_MOVED, '--reason', 'Clash', '--json']);
    for (const name of MODE_NAMES) {
      const printed = jsonOf(runs[name]);
      expect(printed).toMatchObject({ uid: made[name].b, version: 2, status: 'confirmed', start_at: B_MOVED, end_at: tokyoAt(2, '11:30') });
      expect(printed).toEqual(await modes[name].get(`/v1/bookings/${made[name].b}`));
    }
    expectSameInBothModes(modes, runs);
  });

  it('bookings cancel prints the canceled booking; --verbose shows the mode and the generated idempotency key on stderr', async () => {
    const runs = await modes.both((m) => ['bookings', 'cancel', made[m.name].c, '--reason', 'No longer needed', '--verbose']);
    for (const name of MODE_NAMES) {
      const stored = await modes[name].get(`/v1/bookings/${made[name].c}`);
      expect(stored).toMatchObject({ status: 'canceled', version: 2, cancellation_reason: 'No longer needed' });
      expect(runs[name].code).toBe(0);
      expect(runs[name].stdout).toBe(objectLines(stored));
      expect(runs[name].stderr).toMatch(
        /^mode: (embedded|remote)\nidempotency-key: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$/,
      );
      expect(runs[name].stderr.startsWith(`mode: ${name}\n`)).toBe(true);
    }
    expectSameInBothModes(modes, runs);
  });
});

describe('reads: list, filters, pages, get', () => {
  /** Every booking of the mode over HTTP, in the default order (start_at desc). */
  const everything = (name: ModeName) => modes[name].getAll('/v1/bookings?limit=100');

  it('bookings list prints one tab-separated line per booking (uid, start, end, status, host, title), newest start first, no heading', async () => {
    const runs = await modes.both(['bookings', 'list']);
    for (const name of MODE_NAMES) {
      const all = await everything(name);
      expect(all.map((b) => b.uid)).toEqual([BLOCKER_UID, made[name].b, made[name].c, made[name].a]);
      expect(runs[name]).toEqual(success(listLines(all)));
    }
    expect(runs.remote.stdout.split('\n')[0]).toBe(
      `${BLOCKER_UID}\t${tokyoAt(3, '10:00')}\t${tokyoAt(3, '10:30')}\tconfirmed\thal\tWeekly sync between Hal Host and Blocker`,
    );
    expectSameInBothModes(modes, runs);
  });

  it('filters map to the query: --sort --from --to, then --attendee --status --host --event-type, then --status canceled', async () => {
    const window = await modes.both(['bookings', 'list', '--sort', 'start_at_asc', '--from', A_START, '--to', C_START]);
    const kim = await modes.both([
      'bookings',
      'list',
      '--attendee',
      'kim@example.com',
      '--status',
      'confirmed',
      '--host',
      SERIES_USERS.hal,
      '--event-type',
      SYNC.id,
    ]);
    const canceled = await modes.both(['bookings', 'list', '--status', 'canceled']);
    for (const name of MODE_NAMES) {
      const get = (query: string) => modes[name].getAll(`/v1/bookings?${query}`);
      const inWindow = await get(`sort=start_at_asc&start_date=${A_START}&end_date=${C_START}`);
      expect(inWindow.map((b) => b.uid)).toEqual([made[name].a, made[name].c]);
      expect(window[name]).toEqual(success(listLines(inWindow)));
      const kims = await get(`attendee_email=kim@example.com&status=confirmed&host_user_id=${SERIES_USERS.hal}&event_type_id=${SYNC.id}`);
      expect(kims.map((b) => b.uid)).toEqual([made[name].a]);
      expect(kim[name]).toEqual(success(listLines(kims)));
      const cancels = await get('status=canceled');
      expect(cancels.map((b) => b.uid)).toEqual([made[name].c]);
      expect(canceled[name]).toEqual(success(listLines(cancels)));
    }
    for (const runs of [window, kim, canceled]) expectSameInBothModes(modes, runs);
  });

  it('--updated-since keeps what changed at or after the instant: the reschedule of B and the cancel of C, not the earlier update of A', async () => {
    const since = (name: ModeName) => modes[name].get(`/v1/bookings/${made[name].b}`).then((b) => b.updated_at as string);
    const instants = { embedded: await since('embedded'), remote: await since('remote') };
    const runs = await modes.both((m) => ['bookings', 'list', '--updated-since', instants[m.name], '--sort', 'updated_at_asc']);
    for (const name of MODE_NAMES) {
      const changed = await modes[name].getAll(`/v1/bookings?updated_since=${instants[name]}&sort=updated_at_asc`);
      expect(changed.map((b) => b.uid)).toEqual([made[name].b, made[name].c]);
      expect(runs[name]).toEqual(success(listLines(changed)));
    }
    expectSameInBothModes(modes, runs);
  });

  it("--limit 2 prints the first page and, on stderr, the API's next_cursor; --cursor the next (the last: nothing on stderr); --all --limit 1 --json every item as one array", async () => {
    const first = await modes.both(['bookings', 'list', '--limit', '2']);
    const cursors: PerMode<string> = { embedded: '', remote: '' };
    for (const name of MODE_NAMES) {
      const page = expectPage(await api(modes[name].api, '/v1/bookings?limit=2', { token: ORA }));
      // Issue 11: piped, a page with more after it says so on stderr, or a script takes it for the whole list.
      expect(first[name]).toEqual({ code: 0, stdout: listLines(page.items), stderr: `more: pass --cursor ${page.nextCursor} or --all\n` });
      cursors[name] = page.nextCursor!;
    }
    const next = await modes.both((m) => ['bookings', 'list', '--limit', '2', '--cursor', cursors[m.name]]);
    const all = await modes.both(['bookings', 'list', '--all', '--limit', '1', '--json']);
    for (const name of MODE_NAMES) {
      const everyItem = await everything(name);
      expect(next[name]).toEqual(success(listLines(everyItem.slice(2, 4))));
      expect(jsonOf(all[name])).toEqual(everyItem);
      expect(all[name].stderr).toBe('');
    }
    for (const runs of [first, next, all]) expectSameInBothModes(modes, runs);
  });

  it('bookings get prints key<TAB>value lines equal to GET; with --json the data itself (responses populated)', async () => {
    const lines = await modes.both((m) => ['bookings', 'get', made[m.name].a]);
    const json = await modes.both((m) => ['bookings', 'get', made[m.name].a, '--json']);
    for (const name of MODE_NAMES) {
      const stored = await modes[name].get(`/v1/bookings/${made[name].a}`);
      expect(stored.responses).toEqual({});
      expect(lines[name]).toEqual(success(objectLines(stored)));
      expect(jsonOf(json[name])).toEqual(stored);
    }
    expectSameInBothModes(modes, lines);
    expectSameInBothModes(modes, json);
  });
});

describe('errors: one line on stderr, nothing on stdout, the exit code of the table', () => {
  it('a --cursor that is not one the API gave exits 2: error invalid_query_param, naming the flag', async () => {
    const runs = await modes.both(['bookings', 'list', '--cursor', 'not-a-cursor']);
    expectSameInBothModes(modes, runs, () => failure(2, 'invalid_query_param', '--cursor: the cursor is not valid for this query.'));
  });

  it('an unknown or malformed uid exits 3: error booking_not_found: No booking with this uid.', async () => {
    const expected = failure(3, 'booking_not_found', 'No booking with this uid.');
    for (const args of [
      ['bookings', 'get', 'b0000000-0000-4000-8000-00000000dead'],
      ['bookings', 'cancel', 'not-a-uid'],
    ]) {
      expectSameInBothModes(modes, await modes.both(args), () => expected);
    }
  });

  it('a taken slot exits 5: error slot_unavailable', async () => {
    const runs = await modes.both(create(tokyoAt(3, '10:00'), 'kim@example.com'));
    expectSameInBothModes(modes, runs, () => failure(5, 'slot_unavailable', 'The host is not free at this time.'));
  });

  it('a malformed attendee email exits 2: error attendee_email_invalid', async () => {
    const runs = await modes.both([
      'bookings',
      'create',
      '--event-type',
      SYNC.id,
      '--start',
      tokyoAt(1, '15:00'),
      '--attendee-email',
      'kim@',
    ]);
    expectSameInBothModes(modes, runs, () =>
      failure(2, 'attendee_email_invalid', '--attendee-email must be an email address of at most 254 characters.'),
    );
  });

  it('a missing required flag exits 2 naming the flag, prints nothing on stdout and never prompts (stdin left open)', async () => {
    const runs = await modes.both(['bookings', 'create', '--event-type', SYNC.id, '--attendee-email', 'kim@example.com'], {
      stdinOpen: true,
    });
    expectSameInBothModes(modes, runs, () => ({
      code: 2,
      stdout: '',
      stderr: "error usage: required option '--start <iso>' not specified\n(run with --help for usage)\n",
    }));
  });

  it('--metadata that is not JSON exits 2: error usage naming the flag', async () => {
    const runs = await modes.both(create(tokyoAt(1, '15:00'), 'kim@example.com', '--metadata', '{crm:1}'));
    expectSameInBothModes(modes, runs, () => failure(2, 'usage', `--metadata must be JSON, such as '{"key":"value"}'.`));
  });

  it('no token exits 4: error unauthorized', async () => {
    const runs = await modes.both(['bookings', 'list'], { token: null });
    expectSameInBothModes(modes, runs, () => failure(4, 'unauthorized', 'No token: set SCHEDULE_TOKEN or pass --token.'));
  });

  it('an unknown token exits 4 with the same error unauthorized line in both modes', async () => {
    const runs = await modes.both(['bookings', 'list'], { token: 'cli-secret-nobody-has-this' });
    for (const name of MODE_NAMES) {
      expect(runs[name]).toMatchObject({ code: 4, stdout: '' });
      expect(runs[name].stderr).toMatch(/^error unauthorized: [^\n]+\n$/);
    }
    expectSameInBothModes(modes, runs);
  });

  it('a token without the scope exits 4: error insufficient_scope naming it', async () => {
    const runs = await modes.both(['bookings', 'list'], { token: SERIES_SECRETS.oraRead });
    expectSameInBothModes(modes, runs, () => failure(4, 'insufficient_scope', 'This token lacks the scope bookings:read.'));
  });

  it('remote with an --api-url nothing listens on exits 1: error connection_failed naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCli(['bookings', 'list', '--api-url', url], { env: { SCHEDULE_TOKEN: ORA } });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(new RegExp(`^error connection_failed: Cannot reach ${url.replace(/\./g, '\\.')}: [^\\n]+\\n$`));
  });

  it('remote with an API that never answers gives up after SCHEDULE_API_TIMEOUT_MS: exit 1, error connection_failed', async () => {
    const silent = createServer(() => {}); // takes the request and says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const run = await runCli(['bookings', 'list', '--api-url', url], { env: { SCHEDULE_TOKEN: ORA, SCHEDULE_API_TIMEOUT_MS: '300' } });
      expect(run).toEqual({ code: 1, stdout: '', stderr: `error connection_failed: Cannot reach ${url}: no answer within 300 ms\n` });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
