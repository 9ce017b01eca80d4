import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { busyWithin } from '../src/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';
import { createCalendarReader } from '../src/availability/calendar-reader.js';
import type { CalDavConnector } from '../src/caldav/caldav-connector.js';
import { CalDavFailure } from '../src/caldav/caldav-failure.js';
import { createCalendarSyncer } from '../src/calendar-sync/calendar-syncer.js';
import { claimDueSyncs } from '../src/calendar-sync/claim-syncs.js';
import { CALENDAR_RETRY_DELAYS_MS } from '../src/calendar-sync/retry-schedule.js';
import { syncBooking } from '../src/calendar-sync/sync-booking.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { type InviteEvent, inviteCalendar, storedEventCalendar } from '../src/notifications/invite-ics.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import { owesCalendarWrite, queueCalendarSync } from '../src/outbox/queue-calendar-sync.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { cancelBooking, createBooking, getBooking, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { forgetBookings, type ModelCalendar, modelCalendar } from './support/model-calendar.js';
import { principalOf } from './support/organization.js';
import { createSeries, endSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// docs/calendars.md "Bookings written back": the queue a booking write fills
// in its transaction, and the syncer that empties it after commit, against a
// model CalDAV account kept in memory (support/model-calendar.ts).

const CARA = '71000000-0000-4000-8000-00000000000a';
const DAN = '71000000-0000-4000-8000-00000000000b';
const ELI = '71000000-0000-4000-8000-00000000000c';
const ELI_CAL_URL = 'https://eli.cal.test/eli/bookings/';
const CALL = '72000000-0000-4000-8000-00000000000a';
const TOKEN = 'pat_cara_calendar_sync';
const CAL_URL = 'https://cal.test/cara/bookings/';
const T0 = Date.parse('2026-06-01T08:00:00Z');

function workspace() {
  return {
    organization: { name: 'Sync Org' },
    users: [
      {
        id: CARA,
        username: 'cara',
        email: 'cara@sync.test',
        name: 'Cara Host',
        timezone: 'UTC',
        role: 'owner',
        calendars: [
          { kind: 'caldav', url: 'https://cal.test/', username: 'cara', password_env: 'CARA_CALDAV_PASSWORD', book_into: 'bookings' },
        ],
      },
      {
        id: DAN,
        username: 'dan',
        email: 'dan@sync.test',
        name: 'Dan Static',
        timezone: 'UTC',
        role: 'user',
        calendars: [{ kind: 'static', busy: [] }],
      },
      {
        id: ELI,
        username: 'eli',
        email: 'eli@sync.test',
        name: 'Eli Host',
        timezone: 'UTC',
        role: 'user',
        calendars: [
          { kind: 'caldav', url: 'https://eli.cal.test/', username: 'eli', password_env: 'ELI_CALDAV_PASSWORD', book_into: 'bookings' },
        ],
      },
    ],
    event_types: [
      { id: CALL, owner: 'cara', slug: 'call', name: 'Call', duration_minutes: 30, slot_interval_minutes: 15, minimum_notice_minutes: 0 },
    ],
    tokens: [
      {
        name: 'cara',
        user: 'cara',
        secret: TOKEN,
        scopes: [
          'bookings:read',
          'bookings:create',
          'bookings:cancel',
          'bookings:reschedule',
          'bookings:update',
          'series:read',
          'series:write',
        ],
      },
    ],
  };
}

/** A property's value (after its name and `:` or `;`), lines unfolded first (RFC 5545 §3.1). */
const field = (text: string, name: string) =>
  text
    .replace(/\r\n[ \t]/g, '')
    .match(new RegExp(`^${name}[:;](.*)$`, 'm'))?.[1]
    ?.trim();

/** A reminder as a calendar app adds one to an event. */
const ALARM = 'BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\n';

/** An event some other program wrote, with its own UID. */
const eventText = (uid: string, start: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260601T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe.each(storeFixtures())('calendar sync on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let cara: Principal;
  let model: ModelCalendar;
  let eli: ModelCalendar;
  let connector: CalDavConnector;
  let caraCalendars: string;
  let n = 0;

  /** How each attempt ended, as the syncer reports it to the log and the metrics. */
  let outcomes: string[] = [];
  const syncer = (options: { retryDelaysMs?: number[] } = {}) =>
    createCalendarSyncer({ store, clock, ids: randomIds, connector, onOutcome: (report) => outcomes.push(report.outcome), ...options });
  /** Replaces Cara's calendars, as a reload of the workspace file or the calendar API would. */
  const caraHas = (calendars: readonly unknown[]) =>
    store.db
      .updateTable('users')
      .set({ calendars_json: JSON.stringify(calendars) })
      .where('id', '=', CARA)
      .execute();
  const syncRow = (uid: string) => store.db.selectFrom('calendar_syncs').selectAll().where('booking_uid', '=', uid).executeTakeFirst();
  const booked = async (start: string) => {
    n += 1;
    const created = await createBooking(
      deps,
      cara,
      { event_type_id: CALL, start, attendee: { email: 'ann@example.com', name: 'Ann' }, responses: { topic: 'Budget' } },
      `k-${n}`,
    );
    expect(created.outcome.status).toBe(201);
    return (created.outcome as unknown as { data: { uid: string; calendar_sync_status: string; updated_at: string } }).data;
  };
  const bookingNow = async (uid: string) => (await getBooking(deps, cara, uid)) as unknown as { data: Record<string, unknown> };

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace())));
    deps = testDeps(store, clock, {
      // Cara's CalDAV busy time is what the model calendar holds, read with the parser the real reader uses.
      calendars: createCalendarReader(
        async () => [],
        async (_calendar, range) => [...model.objects.values()].flatMap((o) => busyWithin(parseFeed(o.text).series, range, 'UTC')),
      ),
    });
    cara = await principalOf({ store, clock }, TOKEN);
  });
  afterAll(() => fixture.cleanup());
  beforeEach(async () => {
    outcomes = [];
    model = modelCalendar(CAL_URL, { usernames: ['cara'] });
    eli = modelCalendar(ELI_CAL_URL, { usernames: ['eli'] });
    connector = { connect: (calendar) => (calendar.url === 'https://eli.cal.test/' ? eli : model).connector.connect(calendar) };
    caraCalendars ??= (await store.db.selectFrom('users').select('calendars_json').where('id', '=', CARA).executeTakeFirstOrThrow())
      .calendars_json;
    await store.db.updateTable('users').set({ calendars_json: caraCalendars }).where('id', '=', CARA).execute();
    await forgetBookings(store);
  });

  it('a create is queued in its transaction (pending) and written after commit: synced, with the event URL', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    expect(booking.calendar_sync_status).toBe('pending');
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'pending', attempts: 0, generation: 1, href: null });

    clock.advance(1000);
    expect(await syncer().step()).toEqual({ attempted: 1, more: false });

    const href = `${CAL_URL}${booking.uid}.ics`;
    const stored = model.objects.get(href)!;
    expect({
      uid: field(stored.text, 'UID'),
      sequence: field(stored.text, 'SEQUENCE'),
      start: field(stored.text, 'DTSTART'),
      end: field(stored.text, 'DTEND'),
      method: field(stored.text, 'METHOD'),
      organizer: field(stored.text, 'ORGANIZER'),
      attendee: field(stored.text, 'ATTENDEE'),
      description: field(stored.text, 'DESCRIPTION'),
    }).toEqual({
      uid: `${booking.uid}@schedule`,
      sequence: '1',
      start: '20260602T100000Z',
      end: '20260602T103000Z',
      method: undefined,
      organizer: 'CN=Cara Host;SCHEDULE-AGENT=CLIENT:mailto:cara@sync.test',
      attendee: 'CN=Ann;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE;SCHEDULE-AGENT=CLIENT:mailto:ann@example.com',
      description: `Booked by Ann <ann@example.com>\\nJoin: https://meet.test/${booking.uid}\\ntopic: Budget`,
    });
    const after = await bookingNow(booking.uid);
    expect(after.data).toMatchObject({
      calendar_sync_status: 'synced',
      calendar_event_id: href,
      version: 1,
      updated_at: '2026-06-01T08:00:01.000Z',
    });
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'synced', attempts: 0, href, etag: stored.etag, lease: null });
  });

  it('a reschedule replaces the event under its ETag (SEQUENCE moves on), a cancel removes it', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;

    const moved = await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    expect(moved.outcome.status).toBe(200);
    expect((moved.outcome as unknown as { data: { calendar_sync_status: string } }).data.calendar_sync_status).toBe('pending');
    await syncer().step();
    const stored = model.objects.get(href)!;
    expect([field(stored.text, 'DTSTART'), field(stored.text, 'SEQUENCE'), model.creates]).toEqual(['20260603T110000Z', '2', [href]]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href });

    expect((await cancelBooking(deps, cara, booking.uid, { reason: 'ill' }, 'k-cancel')).outcome.status).toBe(200);
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({
      status: 'canceled',
      calendar_sync_status: 'synced',
      calendar_event_id: '',
    });
  });

  it('an event the calendar app changed (title edited, an alarm added): a reschedule writes the booking over it, keeping the alarm', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    model.edit(href, (text) => text.replace(/SUMMARY:[^\r]*/, 'SUMMARY:Edited in the app').replace('END:VEVENT', `${ALARM}END:VEVENT`));

    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    const stored = model.objects.get(href)!;
    const now = (await bookingNow(booking.uid)).data;
    expect({
      summary: field(stored.text, 'SUMMARY'),
      start: field(stored.text, 'DTSTART'),
      sequence: field(stored.text, 'SEQUENCE'),
      alarm: field(stored.text, 'TRIGGER'),
      alarms: stored.text.match(/BEGIN:VALARM/g)?.length,
      objects: [...model.objects.keys()],
    }).toEqual({ summary: now.title, start: '20260603T110000Z', sequence: '2', alarm: '-PT10M', alarms: 1, objects: [href] });
    expect(now).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href });
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'synced', attempts: 0, etag: stored.etag, last_error: null });

    // The next change keeps the alarm too: it is the host's, not part of the booking.
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-04T11:00:00Z' }, 'k-move-again');
    await syncer().step();
    const again = model.objects.get(href)!;
    expect([field(again.text, 'DTSTART'), field(again.text, 'TRIGGER')]).toEqual(['20260604T110000Z', '-PT10M']);
  });

  it('a cancel removes an event the calendar app changed: no ghost is left', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    model.edit(href, (text) => text.replace(/SUMMARY:[^\r]*/, 'SUMMARY:Edited in the app'));

    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({
      status: 'canceled',
      calendar_sync_status: 'synced',
      calendar_event_id: '',
    });
  });

  it('an event deleted in the calendar app: the next change writes it again under its own name', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    model.objects.delete(href);

    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([href]);
    expect(field(model.objects.get(href)!.text, 'DTSTART')).toBe('20260603T110000Z');
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href });
  });

  it("another event at the event's name (not ours): left as it is, failed at once; a cancel leaves it too and is done", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    const theirs = { text: eventText('someone-else@example.com', '20260602T100000Z'), etag: '"theirs"' };
    model.objects.set(href, theirs);

    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect(model.objects.get(href)).toEqual(theirs);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'failed', calendar_event_id: href });
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: `foreign_object: the calendar holds another event (not this booking's) at ${href}; it is left as it is`,
    });
    expect(outcomes).toEqual(['synced', 'failed']);

    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect(model.objects.get(href)).toEqual(theirs);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it("an object at the event's name that cannot be read as an event: a cancel leaves it and reports it (failed), never guessing", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    model.edit(href, () => 'not iCalendar at all');

    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect(model.objects.get(href)?.text).toBe('not iCalendar at all');
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'failed', calendar_event_id: href });
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'failed',
      last_error: `foreign_object: the calendar holds an object that cannot be read as an event at ${href}; it is left as it is`,
    });
  });

  it('a calendar app changing the event at every write: three tries, then retried later like an outage, until it lands', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    model.beforeWrite = async (target) => model.edit(target, (text) => text);
    model.calls.length = 0;

    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect(model.calls).toEqual([`GET ${href}`, `PUT ${href}`, `GET ${href}`, `PUT ${href}`, `GET ${href}`, `PUT ${href}`]);
    expect(field(model.objects.get(href)!.text, 'DTSTART')).toBe('20260602T100000Z');
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: expect.stringMatching(/^changed_elsewhere: /),
    });

    // The cancel races it too; once the app is quiet, the retry removes the event.
    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    model.calls.length = 0;
    await syncer().step();
    expect(model.calls).toEqual([`DELETE ${href}`, `GET ${href}`, `DELETE ${href}`, `GET ${href}`, `DELETE ${href}`]);
    expect([...model.objects.keys()]).toEqual([href]);
    model.beforeWrite = async () => {};
    clock.advance(CALENDAR_RETRY_DELAYS_MS[0]!);
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it('each write costs what it must: a create one PUT, a change a GET (for the alarms) and a PUT, a cancel one DELETE', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    const href = `${CAL_URL}${booking.uid}.ics`;
    await syncer().step();
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect(model.calls).toEqual([`PUT ${href}`, `GET ${href}`, `PUT ${href}`, `DELETE ${href}`]);
  });

  it('a calendar that refuses writes (HTTP 403): one request per attempt, never read and tried again, retried on the schedule', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    const href = `${CAL_URL}${booking.uid}.ics`;
    await syncer().step();
    model.refuseWrites = new CalDavFailure('http', 'CalDAV server https://cal.test/: writing an event answered HTTP 403', 403);
    model.calls.length = 0;
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    const canceled = (await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel')).outcome as unknown as { data: { updated_at: string } };
    clock.advance(1000);
    await syncer().step();
    expect(model.calls).toEqual([`GET ${href}`, `PUT ${href}`, `DELETE ${href}`]);
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: expect.stringMatching(/^http: .*HTTP 403$/),
    });
    expect([...model.objects.keys()]).toEqual([href]);
    expect(outcomes).toEqual(['synced', 'retry', 'retry']);
    // A retry is no change of status: the booking stays pending, its updated_at where the cancel put it.
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'pending', updated_at: canceled.data.updated_at });
  });

  it('a failure whose words run long is stored cut to 1,000 characters', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    model.refuseWrites = new CalDavFailure('http', `CalDAV server https://cal.test/ said ${'x'.repeat(2000)}`, 500);
    await syncer().step();
    const { last_error: stored } = (await syncRow(booking.uid))!;
    expect([stored?.length, stored?.startsWith('http: CalDAV server https://cal.test/ said xxx')]).toEqual([1000, true]);
  });

  it('a server that gives no ETags: changes and the removal land all the same (If-Match: *), one request each', async () => {
    model.hideEtags = true;
    const booking = await booked('2026-06-02T10:00:00Z');
    const href = `${CAL_URL}${booking.uid}.ics`;
    await syncer().step();
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'synced', etag: null });
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect(field(model.objects.get(href)!.text, 'DTSTART')).toBe('20260603T110000Z');
    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
    expect(model.calls).toEqual([`PUT ${href}`, `GET ${href}`, `PUT ${href}`, `DELETE ${href}`]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it('an event changed in the calendar app of a server that then hides its ETag: the cancel removes it with If-Match: *', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    const href = `${CAL_URL}${booking.uid}.ics`;
    await syncer().step();
    model.edit(href, (text) => text.replace(/SUMMARY:[^\r]*/, 'SUMMARY:Edited in the app'));
    model.hideEtags = true;
    model.calls.length = 0;
    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect(model.calls).toEqual([`DELETE ${href}`, `GET ${href}`, `DELETE ${href}`]);
    expect([...model.objects.keys()]).toEqual([]);
  });

  it('an event the calendar app deletes while we remove it (412, then nothing there): the cancel is done', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    const href = `${CAL_URL}${booking.uid}.ics`;
    await syncer().step();
    model.edit(href, (text) => text);
    model.beforeRead = async (target) => {
      model.objects.delete(target);
    };
    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it("a booking moved to another host: its event leaves the first host's calendar and is written to the new one's", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    // What a series' host change does to each occurrence, in its transaction.
    await store.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('bookings')
        .set({ host_user_id: ELI, calendar_sync_status: 'pending' })
        .where('uid', '=', booking.uid)
        .execute();
      await queueCalendarSync(trx, booking.uid, toTimestamp(clock.now()));
    });
    await syncer().step();
    const href = `${ELI_CAL_URL}${booking.uid}.ics`;
    expect([[...model.objects.keys()], [...eli.objects.keys()]]).toEqual([[], [href]]);
    expect(field(eli.objects.get(href)!.text, 'ORGANIZER')).toBe('CN=Eli Host;SCHEDULE-AGENT=CLIENT:mailto:eli@sync.test');
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'synced',
      href,
      account_user_id: ELI,
      account_url: 'https://eli.cal.test/',
      account_username: 'eli',
    });
  });

  it("the host picks another calendar of the account for bookings: the booking's next change moves its event there", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const other = 'https://cal.test/cara/meetings/';
    model.bookInto(other);
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([`${other}${booking.uid}.ics`]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({
      calendar_sync_status: 'synced',
      calendar_event_id: `${other}${booking.uid}.ics`,
    });
  });

  it('the account lists no calendar any more (deleted on the server): the event goes, and there is nowhere to write it', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    model.bookInto(null);
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it("the host's account stops taking bookings (book_into null, a writable static calendar first): the event is removed", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const [account] = JSON.parse(caraCalendars) as Record<string, unknown>[];
    await caraHas([
      { kind: 'static', busy: [], writable: true },
      { ...account, book_into: null },
    ]);
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
    // The writable static calendar takes the bookings now: nothing is owed to any server.
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it("the host's account removed: its events stay where they are (nothing can reach them), and a cancel is done", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    // Accounts like it remain, none the same (server and username): the event is not theirs to remove.
    await caraHas([
      { kind: 'static', busy: [] },
      { kind: 'caldav', url: 'https://other.cal.test/', username: 'cara', password_env: 'CARA_CALDAV_PASSWORD', book_into: null },
      { kind: 'caldav', url: 'https://cal.test/', username: 'carl', password_env: 'CARA_CALDAV_PASSWORD', book_into: null },
    ]);
    await cancelBooking(deps, cara, booking.uid, {}, 'k-cancel');
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([`${CAL_URL}${booking.uid}.ics`]);
    expect(model.calls.filter((c) => c.startsWith('DELETE '))).toEqual([]);
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'not_applicable', calendar_event_id: '' });
  });

  it.each([
    ['URL', { url: 'https://cal.test/dav/' }],
    ['username', { username: 'cara.host' }],
  ])("the host's account given another %s: another account, which finds our event at its name and takes it over", async (_, change) => {
    model = modelCalendar(CAL_URL, { usernames: ['cara', 'cara.host'] });
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    const [account] = JSON.parse(caraCalendars) as Record<string, unknown>[];
    await caraHas([{ ...account, ...change }]);
    model.calls.length = 0;
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    await syncer().step();
    const href = `${CAL_URL}${booking.uid}.ics`;
    // Nothing names the old account any more, so nothing removes from it; the new one's write meets our event (412).
    expect(model.calls).toEqual([`PUT ${href}`, `GET ${href}`, `PUT ${href}`]);
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'synced',
      href,
      account_url: 'url' in change ? change.url : account!.url,
      account_username: 'username' in change ? change.username : 'cara',
    });
  });

  it("a fault that is not the calendar's (a bug, a missing driver) fails the step, not the booking: its write stays leased for a retry", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    connector = {
      connect: async () => {
        throw new TypeError('not a calendar failure');
      },
    };
    await expect(syncer().step()).rejects.toThrow('not a calendar failure');
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'pending', attempts: 0, last_error: null, lease: expect.any(String) });
  });

  it('every ORGANIZER and ATTENDEE of a written event says SCHEDULE-AGENT=CLIENT; a mail invite of the same event does not', async () => {
    const created = await createBooking(
      deps,
      cara,
      {
        event_type_id: CALL,
        start: '2026-06-02T10:00:00Z',
        attendee: { email: 'ann@example.com', name: 'Ann' },
        guests: ['gus@example.com'],
      },
      'k-guests',
    );
    const booking = (created.outcome as unknown as { data: { uid: string } }).data;
    await syncer().step();
    const text = model.objects.get(`${CAL_URL}${booking.uid}.ics`)!.text.replace(/\r\n[ \t]/g, '');
    const people = text.match(/^(ORGANIZER|ATTENDEE)[;:].*$/gm) ?? [];
    expect(people.map((line) => [line.split(/[;:]/)[0], /;SCHEDULE-AGENT=CLIENT[;:]/.test(line)])).toEqual([
      ['ORGANIZER', true],
      ['ATTENDEE', true],
      ['ATTENDEE', true],
    ]);

    const event: InviteEvent = {
      uid: 'u@schedule',
      sequence: 1,
      start: '2026-06-02T10:00:00Z',
      end: '2026-06-02T10:30:00Z',
      stamp: '2026-06-01T08:00:00Z',
      summary: 'Call',
      status: 'CONFIRMED',
      organizer: { email: 'cara@sync.test' },
      attendees: [{ email: 'ann@example.com', partstat: 'ACCEPTED' }],
    };
    // RFC 6638 §7.1: a client never puts it in a scheduling message it sends itself.
    expect(inviteCalendar('REQUEST', event)).not.toContain('SCHEDULE-AGENT');
    expect(storedEventCalendar(event)).not.toContain('SCHEDULE-AGENT');
  });

  it('a server that stays down: retried on the schedule, failed after the last attempt; the next change queues it again', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    model.down = true;
    const sync = syncer();
    const attemptsAt: number[] = [];
    for (let i = 0; i <= CALENDAR_RETRY_DELAYS_MS.length; i++) {
      expect(await sync.step()).toEqual({ attempted: 1, more: false });
      attemptsAt.push(clock.now() - T0);
      // Not due again before its delay.
      expect(await sync.step()).toEqual({ attempted: 0, more: false });
      clock.advance(CALENDAR_RETRY_DELAYS_MS[i] ?? 0);
    }
    const starts = attemptsAt.map((t, i) => t - (attemptsAt[i - 1] ?? t));
    expect(starts).toEqual([0, ...CALENDAR_RETRY_DELAYS_MS]);
    expect(await syncRow(booking.uid)).toMatchObject({
      status: 'failed',
      attempts: 7,
      last_error: expect.stringMatching(/^unreachable: /),
    });
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'failed', calendar_event_id: '' });
    expect(await sync.step()).toEqual({ attempted: 0, more: false });

    model.down = false;
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-03T11:00:00Z' }, 'k-move');
    expect(await sync.step()).toEqual({ attempted: 1, more: false });
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced' });
    expect(model.creates).toEqual([`${CAL_URL}${booking.uid}.ics`]);
  });

  it('a server back up before the last attempt: the retry succeeds', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    model.down = true;
    const sync = syncer();
    await sync.step();
    clock.advance(CALENDAR_RETRY_DELAYS_MS[0]!);
    await sync.step();
    model.down = false;
    clock.advance(CALENDAR_RETRY_DELAYS_MS[1]!);
    expect(await sync.step()).toEqual({ attempted: 1, more: false });
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'synced', attempts: 0, last_error: null });
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced' });
  });

  it('a process killed between writing and recording: the retry finds its own event and makes no second one', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    const [claim] = await claimDueSyncs({ store, clock }, { lease: 'dying', leaseMs: 60_000, limit: 1 });
    // The write happens, and the process dies before recording it.
    await syncBooking(store.db, model.connector, claim!);
    expect(model.creates).toHaveLength(1);
    expect(await syncer().step()).toEqual({ attempted: 0, more: false }); // still leased
    clock.advance(60_000);
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-02T12:00:00Z' }, 'k-move');
    expect(await syncer().step()).toEqual({ attempted: 1, more: false });

    const href = `${CAL_URL}${booking.uid}.ics`;
    expect(model.creates).toEqual([href]);
    expect([...model.objects.keys()]).toEqual([href]);
    expect(field(model.objects.get(href)!.text, 'DTSTART')).toBe('20260602T120000Z');
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href });
  });

  it('a change while a write is in flight: that write is recorded but not marked synced; the next writes the new state', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inFlight = new Promise<void>((r) => {
      entered = r;
    });
    model.beforeWrite = () => {
      entered();
      return new Promise((r) => {
        release = r;
      });
    };
    const first = syncer().step();
    await inFlight;
    await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-04T09:00:00Z' }, 'k-move');
    model.beforeWrite = async () => {};
    release();
    await first;
    const href = `${CAL_URL}${booking.uid}.ics`;
    expect(await syncRow(booking.uid)).toMatchObject({ status: 'pending', generation: 2, href });
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'pending', calendar_event_id: href });

    await syncer().step();
    expect(field(model.objects.get(href)!.text, 'DTSTART')).toBe('20260604T090000Z');
    expect((await bookingNow(booking.uid)).data).toMatchObject({ calendar_sync_status: 'synced' });
    expect(outcomes).toEqual(['superseded', 'synced']);
  });

  it('a lease that ran out: the late process records nothing', async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    const [late] = await claimDueSyncs({ store, clock }, { lease: 'late', leaseMs: 1000, limit: 1 });
    clock.advance(1000);
    await syncer().step();
    const before = await syncRow(booking.uid);
    const { recordSyncOutcome } = await import('../src/calendar-sync/record-sync-outcome.js');
    const outcome = await recordSyncOutcome({ store, clock, retryDelaysMs: CALENDAR_RETRY_DELAYS_MS }, late!, {
      location: null,
      failure: new CalDavFailure('timeout', 'late'),
      hostCalendars: [],
    });
    expect(outcome).toBe('lease_lost');
    expect(await syncRow(booking.uid)).toEqual(before);
  });

  it('two syncers stepping at once write each event once', async () => {
    const uids: string[] = [];
    for (let h = 0; h < 12; h++)
      uids.push((await booked(`2026-06-0${2 + (h % 5)}T${String(9 + Math.floor(h / 5)).padStart(2, '0')}:00:00Z`)).uid);
    const [a, b] = [syncer(), syncer()];
    for (;;) {
      const [x, y] = await Promise.all([a.step(), b.step()]);
      if (x.attempted + y.attempted === 0) break;
    }
    expect(model.creates.sort()).toEqual(uids.map((uid) => `${CAL_URL}${uid}.ics`).sort());
    const statuses = await store.db.selectFrom('bookings').select('calendar_sync_status').execute();
    expect(statuses.map((s) => s.calendar_sync_status)).toEqual(uids.map(() => 'synced'));
  });

  it("a booking's own event does not block its move; an event of ours for a booking the host does not hold does", async () => {
    const booking = await booked('2026-06-02T10:00:00Z');
    await syncer().step();
    // Moved 15 minutes later: the slot overlaps the booking's own event, still at 10:00 in the calendar.
    const moved = await rescheduleBooking(deps, cara, booking.uid, { start: '2026-06-02T10:15:00Z' }, 'k-move');
    expect(moved.outcome.status).toBe(200);

    // An invite of this service for someone else's meeting, accepted into Cara's calendar: it is busy time.
    const foreign = '7aaaaaaa-0000-4000-8000-000000000001';
    model.objects.set(`${CAL_URL}foreign.ics`, {
      etag: '"f"',
      text: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        `UID:${foreign}@schedule`,
        'DTSTAMP:20260601T000000Z',
        'DTSTART:20260602T140000Z',
        'DTEND:20260602T150000Z',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    });
    await expect(
      createBooking(deps, cara, { event_type_id: CALL, start: '2026-06-02T14:00:00Z', attendee: { email: 'bo@example.com' } }, 'k-blocked'),
    ).rejects.toMatchObject({ code: 'slot_unavailable', details: { reason: 'slot_busy' } });
  });

  it("a series' occurrences are ordinary bookings: each written, each removed when the series ends", async () => {
    const made = await createSeries(deps, cara, {
      host_user_id: CARA,
      event_type_id: CALL,
      attendee: { email: 'sol@example.com', name: 'Sol' },
      frequency: 'weekly',
      weekdays: ['tue'],
      time: '09:00',
      timezone: 'UTC',
      starts_on: '2026-06-02',
      count: 3,
    });
    const { series, occurrences } = (made.outcome as unknown as { data: { series: { uid: string }; occurrences: { uid: string }[] } }).data;
    expect(occurrences).toHaveLength(3);
    await syncer().step();
    const hrefs = occurrences.map((o) => `${CAL_URL}${o.uid}.ics`);
    expect([...model.objects.keys()].sort()).toEqual([...hrefs].sort());
    expect(hrefs.map((href) => field(model.objects.get(href)!.text, 'DTSTART'))).toEqual([
      '20260602T090000Z',
      '20260609T090000Z',
      '20260616T090000Z',
    ]);

    expect((await endSeries(deps, cara, series.uid)).outcome.status).toBe(200);
    await syncer().step();
    expect([...model.objects.keys()]).toEqual([]);
  });
});

describe('owesCalendarWrite: which changes of a booking its calendar must follow', () => {
  const row = (calendar_sync_status: string, calendar_event_id = '') => ({ calendar_sync_status, calendar_event_id });

  it('one headed for a CalDAV calendar, one with an event somewhere, one still owed from before', () => {
    expect(owesCalendarWrite(row('not_applicable'), 'pending')).toBe(true);
    expect(owesCalendarWrite(row('synced', 'https://cal.test/cara/bookings/b.ics'), undefined)).toBe(true);
    expect(owesCalendarWrite(row('pending'), undefined)).toBe(true);
    expect(owesCalendarWrite(row('failed'), undefined)).toBe(true);
  });

  it('not one that never reached a calendar and is headed for none', () => {
    expect(owesCalendarWrite(row('synced'), undefined)).toBe(false);
    expect(owesCalendarWrite(row('not_applicable'), 'not_applicable')).toBe(false);
    expect(owesCalendarWrite(row('synced'), 'synced')).toBe(false);
  });
});
