import fc from 'fast-check';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CalDavServer, type CalDavServerKind, startCalDavServer } from '../../../test/support/caldav-server.js';
import type { Principal } from '../src/auth/principal.js';
import { calDavBusyReader } from '../src/availability/adapters/caldav-busy.js';
import { busyWithin } from '../src/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';
import type { SkippedEvent } from '../src/availability/adapters/ics/skipped-event.js';
import type { Interval } from '../src/availability/busy.js';
import { type CalDavBusyReader, CalendarUnreadable, createCalendarReader } from '../src/availability/calendar-reader.js';
import { calDavConnector } from '../src/caldav/adapters/caldav-account.js';
import type { Fetch } from '../src/caldav/caldav-connector.js';
import { calDavPasswords } from '../src/caldav/caldav-passwords.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { CalDavCalendar } from '../src/event-types/calendar.js';
import { randomIds } from '../src/ids.js';
import type { Store } from '../src/storage/store.js';
import { wallClockToInstant } from '../src/wall-clock.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { listSlots } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// docs/calendars.md "Busy time from a CalDAV account", against real servers
// started here (Radicale and Xandikos): events are PUT into a calendar the
// way any client writes them, then read back as busy time by the reader a
// running server uses, and through list_slots for a host in Europe/Berlin.

const HOST = '7c000000-0000-4000-8000-000000000001';
const CALL = '7c100000-0000-4000-8000-000000000001';
const TOKEN = 'pat_caldav_busy_host';
const PASSWORD_VAR = 'HOST_CALDAV_PASSWORD';
const BERLIN = 'Europe/Berlin';
/** Monday 2 March 2026: New York moves to summer time on 8 March, Berlin on 29 March. */
const T0 = Date.parse('2026-03-02T00:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const NEW_YORK_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const calendarText = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//schedule tests//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260201T000000Z', ...lines, 'END:VEVENT'];

/** The events of the tests, by object name. */
const EVENTS: Record<string, string> = {
  // Tuesdays 10:00 New York for six weeks; the third moved to Wednesday 12:00, the fourth removed.
  weekly: calendarText(
    ...NEW_YORK_ZONE,
    ...vevent(
      'weekly@test',
      'SUMMARY:Standup',
      'DTSTART;TZID=America/New_York:20260303T100000',
      'DTEND;TZID=America/New_York:20260303T110000',
      'RRULE:FREQ=WEEKLY;COUNT=6',
      'EXDATE;TZID=America/New_York:20260324T100000',
    ),
    ...vevent(
      'weekly@test',
      'SUMMARY:Standup (moved)',
      'RECURRENCE-ID;TZID=America/New_York:20260317T100000',
      'DTSTART;TZID=America/New_York:20260318T120000',
      'DTEND;TZID=America/New_York:20260318T130000',
    ),
  ),
  transparent: calendarText(...vevent('free@test', 'DTSTART:20260304T090000Z', 'DTEND:20260304T100000Z', 'TRANSP:TRANSPARENT')),
  cancelled: calendarText(...vevent('cancelled@test', 'DTSTART:20260304T110000Z', 'DTEND:20260304T120000Z', 'STATUS:CANCELLED')),
  allday: calendarText(...vevent('allday@test', 'DTSTART;VALUE=DATE:20260305', 'DTEND;VALUE=DATE:20260306')),
  before: calendarText(...vevent('before@test', 'DTSTART:20260201T090000Z', 'DTEND:20260201T100000Z')),
  later: calendarText(...vevent('later@test', 'DTSTART:20260901T090000Z', 'DTEND:20260901T100000Z')),
};

const at = (iso: string) => Date.parse(iso);
const span = (start: string, hours: number): Interval => ({ startMs: at(start), endMs: at(start) + hours * HOUR });

/** What the calendar blocks from 2 March to 10 April for a host in Berlin. */
const EXPECTED: Interval[] = [
  span('2026-03-03T15:00:00Z', 1), // 10:00 EST
  { startMs: at('2026-03-04T23:00:00Z'), endMs: at('2026-03-05T23:00:00Z') }, // 5 March, a whole Berlin day
  span('2026-03-10T14:00:00Z', 1), // 10:00 EDT: New York has moved, Berlin not yet
  span('2026-03-18T16:00:00Z', 1), // the moved occurrence, 12:00 EDT
  span('2026-03-31T14:00:00Z', 1),
  span('2026-04-07T14:00:00Z', 1),
];
const RANGE = { startMs: T0, endMs: at('2026-04-10T00:00:00Z') };

/** A fetch that counts the requests by method. */
function countingFetch() {
  const counts = new Map<string, number>();
  const fetch: Fetch = (input, init) => {
    const method = init?.method ?? 'GET';
    counts.set(method, (counts.get(method) ?? 0) + 1);
    return undiciFetch(input as string, init as never) as unknown as Promise<Response>;
  };
  return { fetch, counts, total: () => [...counts.values()].reduce((a, b) => a + b, 0) };
}

describe.each(['radicale', 'xandikos'] as CalDavServerKind[])('CalDAV busy time from %s', (kind) => {
  let server: CalDavServer;
  let account: CalDavCalendar;
  let clock: ManualClock;

  /** A reader on its own connector (so nothing is shared between tests), the password given as the server has it unless said. */
  const readerFor = (options: { password?: string; env?: Record<string, string>; cacheTtlMs?: number } = {}) => {
    const counting = countingFetch();
    const skipped: SkippedEvent[] = [];
    const passwordOf = calDavPasswords({ env: options.env ?? { [PASSWORD_VAR]: options.password ?? server.password } });
    const connector = calDavConnector({ clock, passwordOf, fetch: counting.fetch });
    const read = calDavBusyReader({
      clock,
      connector,
      cacheTtlMs: options.cacheTtlMs,
      onSkippedEvents: (_calendar, events) => skipped.push(...events),
    });
    return { read, counting, skipped };
  };

  beforeAll(async () => {
    server = await startCalDavServer(kind);
    const personal = await server.calendar('personal');
    await server.calendar('elsewhere');
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
    for (const [name, text] of Object.entries(EVENTS)) {
      const put = await fetch(`${personal}${name}.ics`, {
        method: 'PUT',
        headers: { authorization, 'content-type': 'text/calendar; charset=utf-8' },
        body: text,
      });
      expect(put.status).toBe(201);
    }
    account = {
      kind: 'caldav',
      url: server.url,
      username: server.username,
      password_env: PASSWORD_VAR,
      busy_calendars: ['personal', 'elsewhere'],
      book_into: null,
    };
  }, 60_000);
  afterAll(() => server?.close());
  beforeEach(() => {
    clock = manualClock(T0);
  });

  it('a weekly New York event across both DST changes, moved once and excluded once; all-day in the host zone; free and cancelled events block nothing', async () => {
    const { read, skipped } = readerFor();
    expect(await read(account, RANGE, BERLIN)).toEqual(EXPECTED);
    expect(skipped).toEqual([]);
  });

  it('events outside the range are not read: the server is asked for the range only', async () => {
    const { read } = readerFor();
    expect(await read(account, { startMs: at('2026-08-31T00:00:00Z'), endMs: at('2026-09-02T00:00:00Z') }, 'UTC')).toEqual([
      span('2026-09-01T09:00:00Z', 1),
    ]);
    expect(await read(account, { startMs: at('2026-06-10T00:00:00Z'), endMs: at('2026-06-20T00:00:00Z') }, 'UTC')).toEqual([]);
  });

  it('the same events read as an iCalendar feed give the same busy times over any range (agreement)', async () => {
    const { read } = readerFor();
    const feed = parseFeed(Object.values(EVENTS).join('')).series;
    const ranges = fc.tuple(
      fc.integer({ min: 0, max: 60 * 24 }),
      fc.integer({ min: 1, max: 31 * 24 }),
      fc.constantFrom(BERLIN, 'UTC', 'Asia/Tokyo'),
    );
    await fc.assert(
      fc.asyncProperty(ranges, async ([fromHour, hours, zone]) => {
        const range = { startMs: T0 - DAY + fromHour * HOUR, endMs: T0 - DAY + (fromHour + hours) * HOUR };
        expect(await read(account, range, zone)).toEqual(busyWithin(feed, range, zone));
      }),
      { numRuns: 60 },
    );
  });

  it('cached: a second read within the TTL asks nothing; concurrent reads share one request; after the TTL it asks again', async () => {
    const { read, counting } = readerFor();
    const [a, b, c] = await Promise.all([read(account, RANGE, BERLIN), read(account, RANGE, BERLIN), read(account, RANGE, 'UTC')]);
    expect([a, b]).toEqual([EXPECTED, EXPECTED]);
    expect(c).toEqual(
      EXPECTED.map((i) => (i.endMs - i.startMs === DAY ? { startMs: at('2026-03-05T00:00:00Z'), endMs: at('2026-03-06T00:00:00Z') } : i)),
    );
    // One REPORT per busy calendar; discovery once.
    expect(counting.counts.get('REPORT')).toBe(2);
    const afterFirst = counting.total();

    clock.advance(59_000);
    // A slot list, then a check of one slot in it (with its 7-day search): both inside the window read.
    await read(account, { startMs: T0 + 20 * DAY, endMs: T0 + 51 * DAY }, BERLIN);
    await read(account, { startMs: T0 + 50 * DAY, endMs: T0 + 58 * DAY }, BERLIN);
    expect(counting.total()).toBe(afterFirst);

    clock.advance(2000);
    expect(await read(account, RANGE, BERLIN)).toEqual(EXPECTED);
    expect(counting.counts.get('REPORT')).toBe(4);
  });

  it('no cache (TTL 0): every read asks the server', async () => {
    const { read, counting } = readerFor({ cacheTtlMs: 0 });
    await read(account, RANGE, BERLIN);
    clock.advance(1);
    await read(account, RANGE, BERLIN);
    expect(counting.counts.get('REPORT')).toBe(4);
  });

  it('a range longer than two years: unreadable without asking, not cut short', async () => {
    const { read, counting } = readerFor();
    await expect(read(account, { startMs: T0, endMs: T0 + 800 * DAY }, BERLIN)).rejects.toThrow(
      new CalendarUnreadable(`CalDAV account alice at ${server.url} is not read over more than 732 days at once`),
    );
    expect(counting.total()).toBe(0);
  });

  it('no password (its variable unset): unreadable, saying which variable', async () => {
    const { read, counting } = readerFor({ env: {} });
    await expect(read(account, RANGE, BERLIN)).rejects.toThrow(
      new CalendarUnreadable(
        `CalDAV account alice at ${server.url} is unreadable: CalDAV account alice at ${server.url} has no password: the environment variable ${PASSWORD_VAR} is not set`,
      ),
    );
    expect(counting.total()).toBe(0);
  });

  it('a calendar the account does not have: unreadable, naming the ones it has', async () => {
    const { read } = readerFor();
    const error = await read({ ...account, busy_calendars: ['holidays'] }, RANGE, BERLIN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarUnreadable);
    expect((error as Error).message).toMatch(
      /has no calendar "holidays" \(busy_calendars\); it has: (personal, elsewhere|elsewhere, personal)$/,
    );
  });

  it("an event this service wrote for a booking carries the booking's uid, so the host's own is left out of busy time", async () => {
    const bookings = await server.calendar('bookings');
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
    const booking = '7c200000-0000-4000-8000-000000000001';
    const put = await fetch(`${bookings}${booking}.ics`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'text/calendar' },
      body: calendarText(...vevent(`${booking}@schedule`, 'DTSTART:20260306T100000Z', 'DTEND:20260306T103000Z')),
    });
    expect(put.status).toBe(201);
    const { read } = readerFor();
    expect(await read({ ...account, busy_calendars: ['bookings'] }, RANGE, BERLIN)).toEqual([
      { startMs: at('2026-03-06T10:00:00Z'), endMs: at('2026-03-06T10:30:00Z'), bookingUid: booking },
    ]);
  });

  it('a calendar deleted after discovery: unreadable, not free', async () => {
    const gone = await server.calendar('gone');
    const { read } = readerFor();
    const only = { ...account, busy_calendars: ['gone'] };
    expect(await read(only, RANGE, BERLIN)).toEqual([]);
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
    expect((await fetch(gone, { method: 'DELETE', headers: { authorization } })).status).toBeLessThan(300);
    clock.advance(61_000);
    const error = await read(only, RANGE, BERLIN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarUnreadable);
    expect((error as Error).message).toMatch(
      /^CalDAV account alice at http:\S+ is unreadable: CalDAV server \S+: reading calendar \S+gone\/ failed \(/,
    );
  });

  it.runIf(kind === 'radicale')('a wrong password: unreadable, and neither password in the message', async () => {
    const wrong = 'not the password at all';
    const { read } = readerFor({ password: wrong });
    const error = await read(account, RANGE, BERLIN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarUnreadable);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^CalDAV account alice at ${server.url} is unreadable: CalDAV server http://127\\.0\\.0\\.1:\\d+/\\S* refused the username and password \\(HTTP 401\\)$`,
      ),
    );
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(wrong);
    expect(message).not.toContain(server.password);
  });

  describe.each(storeFixtures())('slots on $name', (fixture) => {
    let store: Store;
    let host: Principal;
    let reader: ReturnType<typeof readerFor>;

    const workspace = () => ({
      organization: { name: 'Busy Org' },
      users: [
        {
          id: HOST,
          username: 'hedda',
          email: 'hedda@busy.test',
          name: 'Hedda Host',
          timezone: BERLIN,
          role: 'owner',
          schedule: {
            timezone: BERLIN,
            weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['08:00', '20:00']]])),
          },
          calendars: [account],
        },
      ],
      event_types: [
        {
          id: CALL,
          owner: 'hedda',
          slug: 'call',
          name: 'Call',
          duration_minutes: 60,
          slot_interval_minutes: 60,
          minimum_notice_minutes: 0,
        },
      ],
      tokens: [{ name: 'hedda', user: 'hedda', secret: TOKEN, scopes: ['slots:read'] }],
    });

    beforeAll(async () => {
      store = await fixture.open();
      await loadWorkspace({ store, clock: manualClock(T0), ids: randomIds }, parseWorkspace(JSON.stringify(workspace())));
      host = await principalOf({ store, clock: manualClock(T0) }, TOKEN);
    }, 60_000);
    afterAll(() => fixture.cleanup());
    beforeEach(() => {
      reader = readerFor();
    });

    const depsWith = (read: CalDavBusyReader) =>
      testDeps(store, clock, {
        calendars: createCalendarReader(async () => [], read),
      });
    const window = { event_type_id: CALL, start: '2026-03-02T00:00:00Z', end: '2026-04-02T00:00:00Z' };

    it('31 days of slots leave out exactly the busy hours', async () => {
      const listed = await listSlots(depsWith(reader.read), host, window);
      const starts = new Set((listed.outcome.data as { slots: { start: string }[] }).slots.map((s) => Date.parse(s.start)));
      // Every hour from 08:00 to 19:00 Berlin, each day; the ones the list lacks are the blocked ones.
      const blocked: string[] = [];
      for (let day = 2; day <= 32; day++) {
        const date = { year: 2026, month: day > 31 ? 4 : 3, day: day > 31 ? day - 31 : day };
        for (let hour = 8; hour < 20; hour++) {
          const startMs = wallClockToInstant(date, hour, 0, BERLIN);
          if (!starts.has(startMs)) blocked.push(new Date(startMs).toISOString());
        }
      }
      const fifthOfMarch = Array.from({ length: 12 }, (_, h) => new Date(at('2026-03-05T07:00:00Z') + h * HOUR).toISOString());
      expect(blocked).toEqual([
        '2026-03-03T15:00:00.000Z',
        ...fifthOfMarch,
        '2026-03-10T14:00:00.000Z',
        '2026-03-18T16:00:00.000Z',
        '2026-03-31T14:00:00.000Z',
      ]);
    });

    // Last: it stops the server.
    it('the server down: 503 availability_unavailable with Retry-After, nothing read from a stale cache; back up: readable', async () => {
      const deps = depsWith(reader.read);
      expect((await listSlots(deps, host, window)).outcome.status).toBe(200);
      await server.stop();
      try {
        // Within the TTL the read is served as it was.
        expect((await listSlots(deps, host, window)).outcome.status).toBe(200);
        clock.advance(61_000);
        expect(await scheduleErrorOf(listSlots(deps, host, window))).toEqual({
          code: 'availability_unavailable',
          message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
          details: {},
          retryAfterSeconds: 30,
        });
      } finally {
        await server.start();
      }
      expect((await listSlots(deps, host, window)).outcome.status).toBe(200);
    });
  });
});
