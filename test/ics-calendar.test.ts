import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingBody,
  cancelBooking,
  checkSlot,
  createBooking,
  getBooking,
  listSlots,
  rescheduleBooking,
} from './support/booking-writes.js';
import { runCli } from './support/cli-run.js';
import { type ApiResponse, api, expectData, expectError, expectPage } from './support/http.js';
import { closedPort, type IcsServer, icsLocal, icsText, icsUtc, startIcsServer } from './support/ics-server.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { dateOf, isoAt, slotsAt, utcAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/calendars.md: an `ics` conflict calendar read from a real
// iCalendar feed served by a local node:http server, and one whose feed
// cannot be read (`503 availability_unavailable`, `Retry-After`, nothing
// booked; docs/api/choices.md "Bookings").

const IDS = {
  iris: 'd4000000-0000-4000-8000-000000000001',
  uri: 'd4000000-0000-4000-8000-000000000002',
  ivy: 'd4000000-0000-4000-8000-000000000003',
  una: 'd4000000-0000-4000-8000-000000000004',
  nia: 'd4000000-0000-4000-8000-000000000005',
  tomo: 'd4000000-0000-4000-8000-000000000006',
  tomoCall: 'd4e00000-0000-4000-8000-000000000006',
  sam: 'd4000000-0000-4000-8000-000000000007',
  samCall: 'd4e00000-0000-4000-8000-000000000007',
  ivyCall: 'd4e00000-0000-4000-8000-000000000003',
  irisCall: 'd4e00000-0000-4000-8000-000000000001',
  uriCall: 'd4e00000-0000-4000-8000-000000000002',
} as const;
const UIDS = {
  uriMove: 'd4b00000-0000-4000-8000-000000000001',
  uriCancel: 'd4b00000-0000-4000-8000-000000000002',
} as const;
const TOKEN = 'ics-secret-owner-all-scopes';

/**
 * Day 3: busy 10:00–11:00 (UTC), shown-as-free 11:00–12:00, and a weekly
 * meeting at 22:00–22:30 Tokyo time (13:00–13:30 UTC) that began three weeks
 * earlier, so it also falls on day 10.
 */
const FEED = icsText([
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//schedule black-box tests//EN',
  'CALSCALE:GREGORIAN',
  'BEGIN:VTIMEZONE',
  'TZID:Asia/Tokyo',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0900',
  'TZOFFSETTO:+0900',
  'TZNAME:JST',
  'END:STANDARD',
  'END:VTIMEZONE',
  'BEGIN:VEVENT',
  'UID:busy-1@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART:${icsUtc(utcAt(3, 10))}`,
  `DTEND:${icsUtc(utcAt(3, 11))}`,
  'SUMMARY:Dentist',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:free-1@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART:${icsUtc(utcAt(3, 11))}`,
  `DTEND:${icsUtc(utcAt(3, 12))}`,
  'TRANSP:TRANSPARENT',
  'SUMMARY:Focus time (shown as free)',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly-1@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART;TZID=Asia/Tokyo:${icsLocal(utcAt(3 - 21, 13), 9 * 60)}`,
  `DTEND;TZID=Asia/Tokyo:${icsLocal(utcAt(3 - 21, 13, 30), 9 * 60)}`,
  'RRULE:FREQ=WEEKLY',
  'SUMMARY:Weekly sync',
  'END:VEVENT',
  'END:VCALENDAR',
]);

/**
 * What real feeds carry besides: DURATION instead of DTEND, a weekly series
 * with COUNT, an EXDATE and one occurrence moved by RECURRENCE-ID, a
 * STATUS:CANCELLED event, an all-day event, and a folded line (RFC 5545
 * §3.1, §3.8.5.1, §3.8.5.3, §3.8.1.11, §3.3.4).
 */
const RICH_FEED = icsText([
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//schedule black-box tests//EN',
  'BEGIN:VEVENT',
  'UID:series-2@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART:${icsUtc(utcAt(3, 9))}`,
  'DURATION:PT1H',
  'RRULE:FREQ=WEEKLY;COUNT=3',
  `EXDATE:${icsUtc(utcAt(10, 9))}`,
  'SUMMARY:A weekly review whose summary is long enough that the producer fol',
  ' ded it onto a second line',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:series-2@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `RECURRENCE-ID:${icsUtc(utcAt(17, 9))}`,
  `DTSTART:${icsUtc(utcAt(17, 11))}`,
  `DTEND:${icsUtc(utcAt(17, 12))}`,
  'SUMMARY:Weekly review (moved)',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:cancelled-1@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART:${icsUtc(utcAt(10, 10))}`,
  `DTEND:${icsUtc(utcAt(10, 11))}`,
  'STATUS:CANCELLED',
  'SUMMARY:Called off',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:all-day-1@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART;VALUE=DATE:${dateOf(5).replace(/-/g, '')}`,
  `DTEND;VALUE=DATE:${dateOf(6).replace(/-/g, '')}`,
  'SUMMARY:Offsite',
  'END:VEVENT',
  'END:VCALENDAR',
]);

/**
 * Times without a zone, for a host in Tokyo: an all-day event on day 4 (a
 * DATE value) and a floating 10:00–11:00 on day 5 (no Z, no TZID). RFC 5545
 * §3.3.4 and §3.3.5: both mean the same wall-clock time wherever they are
 * observed, here the host's own day and hour in Asia/Tokyo.
 */
const FLOATING_FEED = icsText([
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//schedule black-box tests//EN',
  'BEGIN:VEVENT',
  'UID:all-day-tokyo@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART;VALUE=DATE:${dateOf(4).replace(/-/g, '')}`,
  `DTEND;VALUE=DATE:${dateOf(5).replace(/-/g, '')}`,
  'SUMMARY:Holiday',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:floating-tokyo@ics.test',
  `DTSTAMP:${icsUtc(utcAt(-30))}`,
  `DTSTART:${dateOf(5).replace(/-/g, '')}T100000`,
  `DTEND:${dateOf(5).replace(/-/g, '')}T110000`,
  'SUMMARY:Lunch meeting',
  'END:VEVENT',
  'END:VCALENDAR',
]);

/**
 * A good event on day 3 (10:00–11:00 UTC) among a producer's slips: a stray
 * `SUMMARY=` line, a weekly rule written `BYDAY=MO, TU`, an empty EXDATE, and
 * one event with no DTSTART, which is left out alone.
 */
const SLOPPY_FEED = icsText([
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//schedule black-box tests//sloppy//EN',
  'BEGIN:VEVENT',
  'UID:good-1@ics.test',
  `DTSTART:${icsUtc(utcAt(3, 10))}`,
  `DTEND:${icsUtc(utcAt(3, 11))}`,
  'SUMMARY=Stray line',
  'EXDATE;VALUE=DATE:',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:no-start-1@ics.test',
  'SUMMARY:Secret plans',
  'END:VEVENT',
  'END:VCALENDAR',
]);

const EMPTY_FEED = icsText(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//schedule black-box tests//EN', 'END:VCALENDAR']);

let feed: IcsServer;
let richFeed: IcsServer;
let failing: IcsServer;
let garbage: IcsServer;
let floatingFeed: IcsServer;
let sloppyFeed: IcsServer;
let workspacePath: string;
let downPort: number;
let server: TestServer;
let comeback: IcsServer | undefined;

beforeAll(async () => {
  [feed, richFeed, failing, garbage, floatingFeed, sloppyFeed, downPort] = await Promise.all([
    startIcsServer(FEED),
    startIcsServer(RICH_FEED),
    startIcsServer(FEED, { status: 500 }),
    startIcsServer('<html>Sign in to see this calendar</html>'),
    startIcsServer(FLOATING_FEED),
    startIcsServer(SLOPPY_FEED),
    closedPort(),
  ]);
  const workspace = {
    organization: { name: 'ICS Org' },
    limits: { pat_per_minute: 10_000 },
    users: [
      {
        id: IDS.iris,
        username: 'iris',
        email: 'iris@ics.test',
        name: 'Iris Host',
        timezone: 'UTC',
        role: 'owner',
        schedule: {
          timezone: 'UTC',
          weekly: {},
          overrides: [
            { date: dateOf(3), intervals: [['09:00', '15:00']] },
            { date: dateOf(10), intervals: [['12:30', '14:00']] },
          ],
        },
        calendars: [{ kind: 'ics', url: feed.url('/iris.ics') }],
      },
      {
        id: IDS.ivy,
        username: 'ivy',
        email: 'ivy@ics.test',
        name: 'Ivy Host',
        timezone: 'UTC',
        role: 'user',
        schedule: {
          timezone: 'UTC',
          weekly: {},
          overrides: [3, 10, 17]
            .map((d) => ({ date: dateOf(d), intervals: [['09:00', '12:00']] }))
            .concat([5, 6].map((d) => ({ date: dateOf(d), intervals: [['09:00', '10:00']] }))),
        },
        calendars: [{ kind: 'ics', url: richFeed.url('/ivy.ics') }],
      },
      {
        id: IDS.tomo,
        username: 'tomo',
        email: 'tomo@ics.test',
        name: 'Tomo Tokyo',
        timezone: 'Asia/Tokyo',
        role: 'user',
        schedule: {
          timezone: 'Asia/Tokyo',
          weekly: {},
          overrides: [4, 5].map((d) => ({ date: dateOf(d), intervals: [['08:00', '12:00']] })),
        },
        calendars: [{ kind: 'ics', url: floatingFeed.url('/tomo.ics') }],
      },
      {
        id: IDS.sam,
        username: 'sam',
        email: 'sam@ics.test',
        timezone: 'UTC',
        role: 'user',
        schedule: { timezone: 'UTC', weekly: {}, overrides: [{ date: dateOf(3), intervals: [['09:00', '12:00']] }] },
        calendars: [{ kind: 'ics', url: sloppyFeed.url('/sam.ics') }],
      },
      // A feed that answers HTTP 500, and one that answers something that is not iCalendar.
      { id: IDS.una, username: 'una', email: 'una@ics.test', role: 'user', calendars: [{ kind: 'ics', url: failing.url('/una.ics') }] },
      { id: IDS.nia, username: 'nia', email: 'nia@ics.test', role: 'user', calendars: [{ kind: 'ics', url: garbage.url('/nia.ics') }] },
      {
        id: IDS.uri,
        username: 'uri',
        email: 'uri@ics.test',
        name: 'Uri Unreachable',
        timezone: 'UTC',
        role: 'user',
        calendars: [{ kind: 'ics', url: `http://127.0.0.1:${downPort}/uri.ics` }],
      },
    ],
    event_types: [
      { owner: 'una', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { owner: 'nia', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { id: IDS.irisCall, owner: 'iris', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { id: IDS.tomoCall, owner: 'tomo', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { id: IDS.ivyCall, owner: 'ivy', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { id: IDS.samCall, owner: 'sam', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { id: IDS.uriCall, owner: 'uri', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
    ],
    tokens: [{ name: 'iris', user: 'iris', secret: TOKEN, scopes: [...ALL_SCOPES] }],
    bookings: [
      { uid: UIDS.uriMove, event_type: IDS.uriCall, start: isoAt(2, 10), attendee: { email: 'move@example.com', name: 'Mo' } },
      { uid: UIDS.uriCancel, event_type: IDS.uriCall, start: isoAt(2, 11), attendee: { email: 'cancel@example.com', name: 'Cy' } },
    ],
  };
  workspacePath = writeWorkspace(workspace);
  server = await startInProcess({ workspace: workspacePath, db: ':memory:' });
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([
    feed?.close(),
    richFeed?.close(),
    failing?.close(),
    garbage?.close(),
    floatingFeed?.close(),
    sloppyFeed?.close(),
    comeback?.close(),
  ]);
});

describe('a readable ICS feed', () => {
  it('slots omit the busy event and every occurrence of the weekly one, not the transparent event', async () => {
    const data = expectData(await listSlots(server.url, TOKEN, { event_type_id: IDS.irisCall, start: isoAt(3), end: isoAt(11) }));
    const day3 = [9, 9.5, 11, 11.5, 12, 12.5, 13.5, 14, 14.5].map((h) => utcAt(3) + h * 3_600_000);
    const day10 = [utcAt(10, 12, 30), utcAt(10, 13, 30)];
    expect(data).toEqual({
      event_type_id: IDS.irisCall,
      timezone: 'UTC',
      computed_at: expect.any(String),
      slots: slotsAt([...day3, ...day10], 30),
    });
    expect(feed.requests()).toBeGreaterThan(0);
  });

  it('slots/check reports the feed times as slot_busy, with the next free start', async () => {
    const check = async (start: string) => expectData(await checkSlot(server.url, TOKEN, { event_type_id: IDS.irisCall, start }));
    expect(await check(isoAt(3, 10, 30))).toEqual({ available: false, reason: 'slot_busy', next_available: isoAt(3, 11) });
    expect(await check(isoAt(3, 13))).toEqual({ available: false, reason: 'slot_busy', next_available: isoAt(3, 13, 30) });
    expect(await check(isoAt(10, 13))).toEqual({ available: false, reason: 'slot_busy', next_available: isoAt(10, 13, 30) });
    expect(await check(isoAt(3, 11))).toEqual({ available: true, duration_minutes: 30 });
  });

  it('booking into a busy or recurring ICS time is 409 slot_unavailable; into the transparent one succeeds', async () => {
    for (const start of [isoAt(3, 10), isoAt(3, 10, 30), isoAt(3, 13), isoAt(10, 13)]) {
      expectError(await createBooking(server.url, TOKEN, bookingBody(IDS.irisCall, start)), 409, 'slot_unavailable', {
        reason: 'slot_busy',
      });
    }
    const created = expectData(await createBooking(server.url, TOKEN, bookingBody(IDS.irisCall, isoAt(3, 11))), 201);
    expect(created).toMatchObject({ status: 'confirmed', start_at: isoAt(3, 11), end_at: isoAt(3, 11, 30) });
  });

  it('rescheduling into a busy ICS time is 409 slot_unavailable', async () => {
    const created = expectData(await createBooking(server.url, TOKEN, bookingBody(IDS.irisCall, isoAt(3, 14))), 201);
    const res = await rescheduleBooking(server.url, TOKEN, created.uid, { start: isoAt(10, 13) });
    expectError(res, 409, 'slot_unavailable', { reason: 'slot_busy' });
    expect(expectData(await rescheduleBooking(server.url, TOKEN, created.uid, { start: isoAt(10, 13, 30) }))).toMatchObject({
      start_at: isoAt(10, 13, 30),
      version: 2,
    });
  });
});

describe('a feed with DURATION, COUNT, EXDATE, RECURRENCE-ID, CANCELLED and an all-day event', () => {
  it('slots follow what each of them means', async () => {
    const data = expectData(await listSlots(server.url, TOKEN, { event_type_id: IDS.ivyCall, start: isoAt(3), end: isoAt(18) }));
    const at = (day: number, ...hours: number[]) => hours.map((h) => utcAt(day) + h * 3_600_000);
    expect(data.slots).toEqual(
      slotsAt(
        [
          // Day 3: the first occurrence, 09:00–10:00 (DURATION).
          ...at(3, 10, 10.5, 11, 11.5),
          // Day 5: the all-day event covers the working hours.
          ...at(6, 9, 9.5),
          // Day 10: the occurrence is excluded (EXDATE) and the other event was cancelled.
          ...at(10, 9, 9.5, 10, 10.5, 11, 11.5),
          // Day 17: the last occurrence (COUNT=3) was moved to 11:00–12:00.
          ...at(17, 9, 9.5, 10, 10.5),
        ],
        30,
      ),
    );
  });
});

describe("feed times without a zone are the host's wall clock (RFC 5545 §3.3.4, §3.3.5)", () => {
  // Tokyo is UTC+9 all year: its day N runs from day N-1 15:00 to day N 15:00 UTC.
  const tokyoDay = (day: number) => ({ event_type_id: IDS.tomoCall, start: isoAt(day - 1, 15), end: isoAt(day, 15) });

  it("an all-day event blocks the host's whole local day, and only that day", async () => {
    expect(expectData(await listSlots(server.url, TOKEN, tokyoDay(4))).slots).toEqual([]);
    const day5 = expectData(await listSlots(server.url, TOKEN, tokyoDay(5))).slots;
    // 08:00 and 08:30 in Tokyo on day 5 (23:00 and 23:30 UTC on day 4) are free.
    expect(day5.slice(0, 2)).toEqual(slotsAt([utcAt(4, 23), utcAt(4, 23, 30)], 30));
  });

  it('a floating time is read in the host’s zone', async () => {
    const day5 = expectData(await listSlots(server.url, TOKEN, tokyoDay(5))).slots;
    // Tokyo 08:00–12:00 less the floating 10:00–11:00.
    expect(day5).toEqual(slotsAt([utcAt(4, 23), utcAt(4, 23, 30), utcAt(5, 0), utcAt(5, 0, 30), utcAt(5, 2), utcAt(5, 2, 30)], 30));
  });
});

describe('a feed with one event that cannot be read', () => {
  it('the rest of the feed still blocks time', async () => {
    const data = expectData(await listSlots(server.url, TOKEN, { event_type_id: IDS.samCall, start: isoAt(3), end: isoAt(4) }));
    expect(data.slots).toEqual(slotsAt([utcAt(3, 9), utcAt(3, 9, 30), utcAt(3, 11), utcAt(3, 11, 30)], 30));
  });

  it('the log names the feed and the UID of the event left out, never its contents, and /metrics counts it', async () => {
    await listSlots(server.url, TOKEN, { event_type_id: IDS.samCall, start: isoAt(3), end: isoAt(4) });
    const lines = server
      .output()
      .stderr.split('\n')
      .filter((line) => line.includes('no-start-1@ics.test'))
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({
      level: 40,
      feed: sloppyFeed.url('/sam.ics'),
      uid: 'no-start-1@ics.test',
      reason: 'no_start',
      msg: 'calendar event skipped: it cannot be read',
    });
    expect(server.output().stderr).not.toContain('Secret plans');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const counted = /^schedule_calendar_events_skipped_total (\d+)$/m.exec(metrics);
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(1);
  });

  it('schedule calendars test says what each feed gave, and exits 6 when one cannot be read', async () => {
    const sam = await runCli(['calendars', 'test', '--workspace', workspacePath, '--user', 'sam', '--json']);
    expect({ code: sam.code, stderr: sam.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(sam.stdout)).toEqual([
      {
        user: 'sam',
        calendar: sloppyFeed.url('/sam.ics'),
        readable: true,
        busy: expect.any(Number),
        skipped: [{ uid: 'no-start-1@ics.test', reason: 'no_start' }],
      },
    ]);
    const una = await runCli(['calendars', 'test', '--workspace', workspacePath, '--user', 'una']);
    expect(una).toEqual({
      code: 6,
      stdout: `una  ${failing.url('/una.ics')}  unreadable: calendar ${failing.url('/una.ics')} is unreadable: HTTP 500\n`,
      stderr: '',
    });
    const nobody = await runCli(['calendars', 'test', '--workspace', workspacePath, '--user', 'nobody']);
    expect(nobody).toEqual({ code: 2, stdout: '', stderr: `error usage: --user nobody: no such user in ${workspacePath}.\n` });
  });
});

describe('an unreachable ICS feed', () => {
  const uriBookings = async () =>
    expectPage(await api(server.url, `/v1/bookings?host_user_id=${IDS.uri}&limit=100`, { token: TOKEN })).items;
  const expectUnavailable = (res: ApiResponse) => {
    expectError(res, 503, 'availability_unavailable', {});
    expect(res.headers.get('retry-after')).toBe('30');
  };
  const key = randomUUID();
  const body = bookingBody(IDS.uriCall, isoAt(2, 12), 'patient@example.com');

  it('GET /v1/slots: 503 availability_unavailable with Retry-After: 30', async () => {
    expectUnavailable(await listSlots(server.url, TOKEN, { event_type_id: IDS.uriCall, start: isoAt(2), end: isoAt(3) }));
  });

  it('GET /v1/slots/check: 503', async () => {
    expectUnavailable(await checkSlot(server.url, TOKEN, { event_type_id: IDS.uriCall, start: isoAt(2, 12) }));
    expectUnavailable(await checkSlot(server.url, TOKEN, { username: 'uri', event_slug: 'call', start: isoAt(2, 10) }));
  });

  it('POST /v1/bookings: 503 and nothing is booked', async () => {
    const before = await uriBookings();
    expect(before.map((b: { uid: string }) => b.uid).sort()).toEqual([UIDS.uriMove, UIDS.uriCancel].sort());
    expectUnavailable(await createBooking(server.url, TOKEN, body, { key }));
    // Again with the same key: the failure was not stored, so it runs (and fails) again.
    expectUnavailable(await createBooking(server.url, TOKEN, body, { key }));
    expect(await uriBookings()).toEqual(before);
  });

  it('reschedule: 503 and the booking stays where it was', async () => {
    const before = expectData(await getBooking(server.url, TOKEN, UIDS.uriMove));
    expectUnavailable(await rescheduleBooking(server.url, TOKEN, UIDS.uriMove, { start: isoAt(2, 14) }));
    expect(expectData(await getBooking(server.url, TOKEN, UIDS.uriMove))).toEqual(before);
  });

  it('cancel needs no availability and still works', async () => {
    expect(expectData(await cancelBooking(server.url, TOKEN, UIDS.uriCancel, { reason: 'Feed down' }))).toMatchObject({
      status: 'canceled',
      version: 2,
    });
  });

  it('a feed answering HTTP 500, or not iCalendar, is unreadable too', async () => {
    for (const username of ['una', 'nia']) {
      expectUnavailable(await listSlots(server.url, TOKEN, { username, event_slug: 'call', start: isoAt(2), end: isoAt(3) }));
      expectUnavailable(
        await createBooking(server.url, TOKEN, { username, event_slug: 'call', start: isoAt(2, 9), attendee: { email: 'x@example.com' } }),
      );
    }
    expect(failing.requests()).toBeGreaterThan(0);
    expect(garbage.requests()).toBeGreaterThan(0);
  });

  it('once the feed answers, a retry with the same Idempotency-Key books (the failure was not cached)', async () => {
    comeback = await startIcsServer(EMPTY_FEED, { port: downPort });
    const retried = await createBooking(server.url, TOKEN, body, { key });
    const created = expectData(retried, 201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(created).toMatchObject({ status: 'confirmed', start_at: isoAt(2, 12), attendees: [{ email: 'patient@example.com' }] });
    expect(comeback.requests()).toBeGreaterThan(0);
    // Now it is remembered.
    const replay = await createBooking(server.url, TOKEN, body, { key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(retried.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The other operations read the feed again too.
    const slots = expectData(
      await listSlots(server.url, TOKEN, { event_type_id: IDS.uriCall, start: isoAt(2, 11), end: isoAt(2, 13) }),
    ).slots;
    expect(slots).toEqual(slotsAt([utcAt(2, 11), utcAt(2, 11, 30), utcAt(2, 12, 30)], 30));
    expect(expectData(await rescheduleBooking(server.url, TOKEN, UIDS.uriMove, { start: isoAt(2, 14) }))).toMatchObject({
      start_at: isoAt(2, 14),
      version: 2,
    });
  });
});
