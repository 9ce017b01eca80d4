import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { createCalendarReader } from '../src/availability/calendar-reader.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { getBookingOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { createSeriesOperation } from '../src/operations/series-operations.js';
import type { CreateSeriesResult, SkipCause } from '../src/series/series-view.js';
import type { Store } from '../src/storage/store.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { type CallOptions, createSeries, notificationsOf, occurrenceRowsOf } from './support/series-calls.js';
import {
  EVENT_TYPE_VIEW,
  importedBooking,
  NOTHING_WRITTEN,
  occurrenceAt,
  resetSeriesWorkspace,
  seriesBody,
  seriesView,
  skippedAt,
  UUID,
  writesOf,
} from './support/series-expect.js';
import { HOST_OF, loadSeriesWorkspace, S0, SERIES_ET, SERIES_TOKEN, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

const B1 = '90000000-0000-4000-8000-000000000001';
const B2 = '90000000-0000-4000-8000-000000000002';
const NOBODY = '70000000-0000-4000-8000-0000000000ff';
const ROOM = 'https://video.example/room';

/** The four starts of `seriesBody()`: Mondays and Wednesdays at 10:00 UTC from 2026-03-02. */
const DEFAULT_STARTS = ['2026-03-02T10:00Z', '2026-03-04T10:00Z', '2026-03-09T10:00Z', '2026-03-11T10:00Z'];

const error = (code: string, details: Record<string, unknown> = {}, retryAfterSeconds?: number) => ({ code, details, retryAfterSeconds });
const invalidFields = (...fields: string[]) => error('validation_error', { fields });
const COUNT_OUT_OF_RANGE = error('count_out_of_range', { fields: ['count'], min: 1, max: 42 });
const HOST_NOT_ALLOWED = error('host_not_allowed', { fields: ['host_user_id'] });
/** An unknown username and one the caller may not act for answer alike, as ids do. */
const HOST_BY_NAME_NOT_ALLOWED = error('host_not_allowed', { fields: ['host_username'] });
const ET_NOT_FOUND = error('event_type_not_found');
const noDatesFree = (...dates: [string, string, SkipCause][]) =>
  error('no_dates_free', { skipped: dates.map(([date, start, cause]) => skippedAt(date, start, cause)) });

describe.each(storeFixtures())('POST /v1/series on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  const who: Record<keyof typeof SERIES_TOKEN, Principal> = {} as never;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(S0);
    deps = testDeps(store, clock);
    await loadSeriesWorkspace({ store, clock });
    for (const name of Object.keys(SERIES_TOKEN) as (keyof typeof SERIES_TOKEN)[]) {
      who[name] = await principalOf({ store, clock }, SERIES_TOKEN[name]);
    }
  });
  beforeEach(async () => {
    clock.set(S0);
    await resetSeriesWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  const created = async (body: unknown, principal = who.hana, options: CallOptions = {}) =>
    (await createSeries(deps, principal, body, options)).outcome.data as CreateSeriesResult;
  /** The refusal of a create, and proof that it wrote nothing (no series, occurrences, events, mail or key). */
  const refusal = async (body: unknown, principal = who.hana) => {
    const seen = await scheduleErrorOf(createSeries(deps, principal, body));
    expect(await writesOf(store)).toEqual(NOTHING_WRITTEN);
    return seen;
  };
  const getBooking = (uid: string, principal = who.hana) =>
    execute(deps, getBookingOperation, principal, { params: { uid }, query: {}, body: undefined }, 'req-get').then((e) => e.outcome);

  describe('a created series', () => {
    it('answers 201 with version 1, its location, the whole Series, the occurrences in order and nothing skipped', async () => {
      const executed = await createSeries(deps, who.hana, seriesBody(), { key: 'k-first' });
      const uid = (executed.outcome.data as CreateSeriesResult).series.uid;
      expect(uid).toMatch(UUID);
      expect(executed).toEqual({
        outcome: {
          status: 201,
          data: { series: seriesView(uid), occurrences: DEFAULT_STARTS.map((s) => occurrenceAt(s)), skipped: [] },
          version: 1,
          location: `/v1/series/${uid}`,
        },
        requestId: 'req-k-first',
        replayed: false,
      });
    });

    it('books each occurrence as its own confirmed booking of the series, uids distinct', async () => {
      const { series, occurrences } = await created(seriesBody());
      const rows = await occurrenceRowsOf(store, series.uid);
      expect(rows.map(({ uid, start_at, end_at, status }) => ({ uid, start_at, end_at, status }))).toEqual(occurrences);
      expect(new Set([series.uid, ...occurrences.map((o) => o.uid)]).size).toBe(5);
    });

    it('books on the host named by host_username exactly as by host_user_id', async () => {
      const byName = await created(seriesBody({ host_user_id: undefined, host_username: 'hana' }));
      expect(byName).toEqual({
        series: seriesView(byName.series.uid),
        occurrences: DEFAULT_STARTS.map((s) => occurrenceAt(s)),
        skipped: [],
      });
    });

    it('lets a manager name a managed host by username (mona for hana) and the admin anyone (ada for sam)', async () => {
      const forHana = await created(seriesBody({ host_user_id: undefined, host_username: 'hana' }), who.mona);
      expect(forHana.series.host).toEqual(HOST_OF.hana);
      const forSam = await created(seriesBody({ host_user_id: undefined, host_username: 'sam', weekdays: ['tue'], count: 1 }), who.ada);
      expect(forSam.series.host).toEqual(HOST_OF.sam);
    });

    it('monthly_same_day books the day of month of starts_on, once a month', async () => {
      const body = seriesBody({ frequency: 'monthly_same_day', weekdays: undefined, starts_on: '2026-03-20', time: '11:00', count: 3 });
      const { series, occurrences, skipped } = await created(body);
      expect({ series, occurrences, skipped }).toEqual({
        series: seriesView(series.uid, { frequency: 'monthly_same_day', weekdays: [], starts_on: '2026-03-20', time: '11:00', count: 3 }),
        occurrences: ['2026-03-20T11:00Z', '2026-04-20T11:00Z', '2026-05-20T11:00Z'].map((s) => occurrenceAt(s)),
        skipped: [],
      });
    });

    it('monthly_same_day on the 31st passes over months without that day, neither counted nor reported', async () => {
      const body = seriesBody({
        host_user_id: USER.sam,
        frequency: 'monthly_same_day',
        weekdays: undefined,
        timezone: 'UTC',
        starts_on: '2026-03-31',
        count: 3,
      });
      const { occurrences, skipped } = await created(body, who.ada);
      expect({ occurrences, skipped }).toEqual({
        occurrences: ['2026-03-31T10:00Z', '2026-05-31T10:00Z', '2026-07-31T10:00Z'].map((s) => occurrenceAt(s)),
        skipped: [],
      });
    });

    it("defaults timezone to the host's own zone (sam, Asia/Kolkata), not the caller's or the event type owner's", async () => {
      const body = seriesBody({ host_user_id: USER.sam, weekdays: ['tue'], time: '09:30', starts_on: '2026-03-03', count: 2 });
      const { series, occurrences } = await created(body, who.ada);
      expect({ series, occurrences }).toEqual({
        series: seriesView(series.uid, {
          host: HOST_OF.sam,
          timezone: 'Asia/Kolkata',
          weekdays: ['tue'],
          time: '09:30',
          starts_on: '2026-03-03',
          count: 2,
        }),
        // 09:30 in Kolkata (UTC+05:30) is 04:00 UTC, a time sam works and hana would not.
        occurrences: ['2026-03-03T04:00Z', '2026-03-10T04:00Z'].map((s) => occurrenceAt(s)),
      });
    });

    it('keeps the wall-clock time of an explicit zone across its DST change (New York, 8 March 2026)', async () => {
      const { series, occurrences } = await created(
        seriesBody({ timezone: 'America/New_York', weekdays: ['mon'], time: '09:00', count: 3 }),
      );
      expect(series.timezone).toBe('America/New_York');
      expect(occurrences).toEqual(['2026-03-02T14:00Z', '2026-03-09T13:00Z', '2026-03-16T13:00Z'].map((s) => occurrenceAt(s)));
    });

    it('interval_weeks 2 uses weeks 0, 2, 4 from the week of starts_on, and never a day before starts_on', async () => {
      const body = seriesBody({ weekdays: ['mon', 'thu'], interval_weeks: 2, starts_on: '2026-03-04', time: '15:00', count: 3 });
      const { series, occurrences } = await created(body);
      expect(series.interval_weeks).toBe(2);
      expect(occurrences).toEqual(['2026-03-05T15:00Z', '2026-03-16T15:00Z', '2026-03-19T15:00Z'].map((s) => occurrenceAt(s)));
    });

    it('passes over the instants before now when starts_on is in the past: neither counted nor reported', async () => {
      const { series, occurrences, skipped } = await created(
        seriesBody({ weekdays: ['mon'], time: '09:00', starts_on: '2026-02-16', count: 2 }),
      );
      expect(series.starts_on).toBe('2026-02-16');
      expect({ occurrences, skipped }).toEqual({
        occurrences: ['2026-03-02T09:00Z', '2026-03-09T09:00Z'].map((s) => occurrenceAt(s)),
        skipped: [],
      });
    });

    it('counts an instant at exactly now as past (sam, Monday 08:00 UTC)', async () => {
      const body = seriesBody({ host_user_id: USER.sam, timezone: 'UTC', weekdays: ['mon'], time: '08:00', count: 2 });
      const { occurrences, skipped } = await created(body, who.ada);
      expect({ occurrences, skipped }).toEqual({
        occurrences: ['2026-03-09T08:00Z', '2026-03-16T08:00Z'].map((s) => occurrenceAt(s)),
        skipped: [],
      });
    });

    it('books exactly count occurrences when every date is free', async () => {
      const { series, occurrences } = await created(seriesBody({ weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'], count: 5 }));
      expect(occurrences.map((o) => o.start_at)).toEqual([2, 3, 4, 5, 6].map((d) => `2026-03-0${d}T10:00:00.000Z`));
      expect(await occurrenceRowsOf(store, series.uid)).toHaveLength(5);
    });

    it('books the largest count, 42, and the smallest, 1', async () => {
      const week = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
      const many = await created(seriesBody({ host_user_id: USER.sam, weekdays: week, timezone: 'UTC', count: 42 }), who.ada);
      const one = await created(seriesBody({ count: 1 }));
      expect([many.occurrences.length, many.occurrences.at(-1)?.start_at, one.occurrences]).toEqual([
        42,
        '2026-04-12T10:00:00.000Z',
        [occurrenceAt('2026-03-02T10:00Z')],
      ]);
    });

    it('does not hold occurrences to the slot grid: 09:10 books', async () => {
      const { occurrences } = await created(seriesBody({ weekdays: ['mon'], time: '09:10', count: 2 }));
      expect(occurrences).toEqual(['2026-03-02T09:10Z', '2026-03-09T09:10Z'].map((s) => occurrenceAt(s)));
    });

    it('shows location_url and notify_invitee as sent', async () => {
      const { series } = await created(seriesBody({ location_url: ROOM, notify_invitee: false }));
      expect(series).toEqual(seriesView(series.uid, { location_url: ROOM, notify_invitee: false }));
    });

    it.each([
      [
        { email: 'bob@example.com', name: 'Robert', first_name: 'Bob' },
        { name: 'Robert', email: 'bob@example.com', phone: null },
      ],
      [
        { email: 'bob@example.com', last_name: 'Stone' },
        { name: 'Stone', email: 'bob@example.com', phone: null },
      ],
      [{ email: 'bob@example.com' }, { name: 'bob@example.com', email: 'bob@example.com', phone: null }],
    ])('names the attendee by name, else first and last name, else the email: %j', async (attendee, view) => {
      const { series } = await created(seriesBody({ attendee }));
      expect(series.attendee).toEqual(view);
    });

    it("records source 'mcp' when the call came through MCP", async () => {
      const { series } = await created(seriesBody(), who.hana, { source: 'mcp' });
      expect(series).toEqual(seriesView(series.uid, { source: 'mcp' }));
    });
  });

  describe('dates the host is not free at are skipped, never shifted', () => {
    it.each([
      ['at the same time', '2026-03-04T10:00:00Z'],
      ['overlapping its end', '2026-03-04T10:15:00Z'],
      ['overlapping its start', '2026-03-04T09:45:00Z'],
    ])('a confirmed booking of the host %s skips the date, and fewer than count result', async (_, start) => {
      await resetSeriesWorkspace({ store, clock }, [importedBooking(B1, 'hana', start)]);
      const { series, occurrences, skipped } = await created(seriesBody());
      expect({ count: series.count, occurrences, skipped }).toEqual({
        count: 4,
        occurrences: ['2026-03-02T10:00Z', '2026-03-09T10:00Z', '2026-03-11T10:00Z'].map((s) => occurrenceAt(s)),
        skipped: [skippedAt('2026-03-04', '2026-03-04T10:00Z', 'busy')],
      });
    });

    it('a canceled booking of the host, or a booking of another host, does not skip the date', async () => {
      await resetSeriesWorkspace({ store, clock }, [
        importedBooking(B1, 'hana', '2026-03-04T10:00:00Z', 'canceled'),
        importedBooking(B2, 'ivan', '2026-03-09T10:00:00Z'),
      ]);
      const { occurrences, skipped } = await created(seriesBody());
      expect({ occurrences, skipped }).toEqual({ occurrences: DEFAULT_STARTS.map((s) => occurrenceAt(s)), skipped: [] });
    });

    it("pia's static calendar busy time (Wednesday 11 March, 09:00-12:00) skips that date", async () => {
      const { series, occurrences, skipped } = await created(seriesBody({ host_user_id: USER.pia }), who.ada);
      expect({ host: series.host, occurrences, skipped }).toEqual({
        host: HOST_OF.pia,
        occurrences: DEFAULT_STARTS.slice(0, 3).map((s) => occurrenceAt(s)),
        skipped: [skippedAt('2026-03-11', '2026-03-11T10:00Z', 'busy')],
      });
    });

    it.each([
      [
        'buffered',
        [DEFAULT_STARTS[0]!, DEFAULT_STARTS[3]!],
        [skippedAt('2026-03-04', DEFAULT_STARTS[1]!, 'busy'), skippedAt('2026-03-09', DEFAULT_STARTS[2]!, 'busy')],
      ],
      ['weekly', DEFAULT_STARTS, []],
    ] as const)("the event type's buffers keep the time around each occurrence free (%s type)", async (slug, booked, skips) => {
      // One booking starts 30 minutes after an occurrence, another ends 10 minutes before one: only 15-minute buffers reach them.
      await resetSeriesWorkspace({ store, clock }, [
        importedBooking(B1, 'hana', '2026-03-04T10:30:00Z'),
        importedBooking(B2, 'hana', '2026-03-09T09:20:00Z'),
      ]);
      const { series, occurrences, skipped } = await created(seriesBody({ event_type_id: SERIES_ET[slug] }));
      expect({ eventType: series.event_type, occurrences, skipped }).toEqual({
        eventType: EVENT_TYPE_VIEW[slug],
        occurrences: booked.map((s) => occurrenceAt(s)),
        skipped: skips,
      });
    });

    it('reads the bookings as far as the buffers reach: one ending just before the first date and one starting just after the last skip them', async () => {
      // The buffered type keeps 15 minutes free on each side: a booking ends 10 minutes before the first date, another starts 10 minutes after the last ends.
      await resetSeriesWorkspace({ store, clock }, [
        importedBooking(B1, 'hana', '2026-03-02T09:20:00Z'),
        importedBooking(B2, 'hana', '2026-03-09T10:40:00Z'),
      ]);
      const { occurrences, skipped } = await created(seriesBody({ event_type_id: SERIES_ET.buffered, count: 3 }));
      expect({ occurrences, skipped }).toEqual({
        occurrences: [occurrenceAt('2026-03-04T10:00Z')],
        skipped: [skippedAt('2026-03-02', '2026-03-02T10:00Z', 'busy'), skippedAt('2026-03-09', '2026-03-09T10:00Z', 'busy')],
      });
    });

    it('a date outside working hours is skipped: Saturdays, while Friday 16:30-17:00 fits', async () => {
      const { occurrences, skipped } = await created(seriesBody({ weekdays: ['fri', 'sat'], time: '16:30' }));
      expect({ occurrences, skipped }).toEqual({
        occurrences: ['2026-03-06T16:30Z', '2026-03-13T16:30Z'].map((s) => occurrenceAt(s)),
        skipped: [
          skippedAt('2026-03-07', '2026-03-07T16:30Z', 'outside_working_hours'),
          skippedAt('2026-03-14', '2026-03-14T16:30Z', 'outside_working_hours'),
        ],
      });
    });

    it('minimum notice skips the first date and the 14-day horizon the last (short type, 60 minutes)', async () => {
      const { series, occurrences, skipped } = await created(
        seriesBody({ event_type_id: SERIES_ET.short, weekdays: ['mon'], time: '09:00', count: 3 }),
      );
      expect({ eventType: series.event_type, occurrences, skipped }).toEqual({
        eventType: EVENT_TYPE_VIEW.short,
        occurrences: [occurrenceAt('2026-03-09T09:00Z', 60)],
        // 09:00 today is within 120 minutes of 08:00; 16 March 09:00 is past 16 March 08:00, 14 days on.
        skipped: [
          skippedAt('2026-03-02', '2026-03-02T09:00Z', 'outside_minimum_notice'),
          skippedAt('2026-03-16', '2026-03-16T09:00Z', 'outside_future_limit'),
        ],
      });
    });

    it('reports a skipped date as the civil date in the series zone (02:00 Kolkata is 20:30 UTC the day before)', async () => {
      await resetSeriesWorkspace({ store, clock }, [importedBooking(B1, 'sam', '2026-03-03T20:30:00Z')]);
      const body = seriesBody({ host_user_id: USER.sam, weekdays: ['wed'], time: '02:00', starts_on: '2026-03-04', count: 2 });
      const { occurrences, skipped } = await created(body, who.ada);
      expect({ occurrences, skipped }).toEqual({
        occurrences: [occurrenceAt('2026-03-10T20:30Z')],
        skipped: [skippedAt('2026-03-04', '2026-03-03T20:30Z', 'busy')],
      });
    });
  });

  describe('refusals write nothing', () => {
    it.each([
      ['a body that is not an object', 'not an object'],
      ['an array body', [seriesBody()]],
    ])('refuses %s with validation_error', async (_, body) => {
      expect(await refusal(body)).toEqual({ ...invalidFields(), message: 'The body must be a JSON object.' });
    });

    it('refuses a body missing every required field, naming each (the host last: host_user_id or host_username names it)', async () => {
      expect(await refusal({})).toEqual({
        ...invalidFields('attendee', 'frequency', 'time', 'starts_on', 'count', 'host_user_id'),
        message:
          'attendee: is required; frequency: must be one of weekly, monthly_same_day; time: is required; starts_on: is required; count: is required; host_user_id: name the host: host_user_id or host_username',
      });
    });

    it.each([
      ['no attendee email', { attendee: { name: 'Bob' } }, invalidFields('attendee.email'), 'attendee.email: must be an email address'],
      ['time 24:00', { time: '24:00' }, invalidFields('time'), 'time: must be HH:MM, 24-hour'],
      ['time 9:00', { time: '9:00' }, invalidFields('time'), 'time: must be HH:MM, 24-hour'],
      ['starts_on 2026-02-30', { starts_on: '2026-02-30' }, invalidFields('starts_on'), 'starts_on: must be a date that exists'],
      [
        'starts_on not a date',
        { starts_on: '02/03/2026' },
        invalidFields('starts_on'),
        'starts_on: must be a date YYYY-MM-DD; starts_on: must be a date that exists; starts_on: must be between 1900-01-01 and 9000-12-31',
      ],
      [
        'starts_on before 1900',
        { starts_on: '1899-12-31' },
        invalidFields('starts_on'),
        'starts_on: must be between 1900-01-01 and 9000-12-31',
      ],
      [
        'weekly without weekdays',
        { weekdays: undefined },
        invalidFields('weekdays'),
        'weekdays: a weekly series needs at least one weekday',
      ],
      ['weekly with no weekday', { weekdays: [] }, invalidFields('weekdays'), 'weekdays: a weekly series needs at least one weekday'],
      ['a weekday twice', { weekdays: ['mon', 'wed', 'mon'] }, invalidFields('weekdays'), 'weekdays: must not list a day twice'],
      [
        'an unknown weekday',
        { weekdays: ['monday'] },
        invalidFields('weekdays.0'),
        'weekdays.0: must be one of sun, mon, tue, wed, thu, fri, sat',
      ],
      ['interval_weeks 0', { interval_weeks: 0 }, invalidFields('interval_weeks'), 'interval_weeks: must be an integer from 1 to 8'],
      ['interval_weeks 9', { interval_weeks: 9 }, invalidFields('interval_weeks'), 'interval_weeks: must be an integer from 1 to 8'],
      [
        'interval_weeks 1e308',
        { interval_weeks: 1e308 },
        invalidFields('interval_weeks'),
        'interval_weeks: must be an integer from 1 to 8',
      ],
      ['interval_weeks 1.5', { interval_weeks: 1.5 }, invalidFields('interval_weeks'), 'interval_weeks: must be an integer from 1 to 8'],
      [
        'interval_weeks as text',
        { interval_weeks: '2' },
        invalidFields('interval_weeks'),
        'interval_weeks: must be an integer from 1 to 8',
      ],
      ['a count that is not an integer', { count: 2.5 }, invalidFields('count'), 'count: must be an integer'],
      ['a count sent as text', { count: '4' }, invalidFields('count'), 'count: must be a number, not a string'],
      ['an unknown frequency', { frequency: 'daily' }, invalidFields('frequency'), 'frequency: must be one of weekly, monthly_same_day'],
      ['an unknown timezone', { timezone: 'Mars/Olympus' }, invalidFields('timezone'), 'timezone: must be an IANA time zone name'],
      [
        'a location_url that is not http(s)',
        { location_url: 'ftp://x' },
        invalidFields('location_url'),
        'location_url: must be an http(s) URL',
      ],
      [
        'notify_invitee as text',
        { notify_invitee: 'no' },
        invalidFields('notify_invitee'),
        'notify_invitee: must be true or false, not a string',
      ],
      ['a host_user_id that is not a UUID', { host_user_id: 'hana' }, invalidFields('host_user_id'), 'host_user_id: must be a UUID'],
      [
        'no host named',
        { host_user_id: undefined },
        invalidFields('host_user_id'),
        'host_user_id: name the host: host_user_id or host_username',
      ],
      [
        'the host named twice',
        { host_username: 'hana' },
        invalidFields('host_username'),
        'host_username: name the host once: host_user_id or host_username, not both',
      ],
      [
        'an empty host_username',
        { host_user_id: undefined, host_username: '' },
        invalidFields('host_username'),
        'host_username: must not be empty',
      ],
      [
        'no event type named',
        { event_type_id: undefined },
        invalidFields('event_type_id'),
        'event_type_id: name the event type: event_type_id, or both username and event_slug',
      ],
      [
        'a username without event_slug',
        { event_type_id: undefined, username: 'hana' },
        invalidFields('event_type_id'),
        'event_type_id: name the event type: event_type_id, or both username and event_slug',
      ],
      ['an event_type_id that is not a UUID', { event_type_id: 'weekly' }, invalidFields('event_type_id'), 'event_type_id: must be a UUID'],
      [
        'a malformed attendee email',
        { attendee: { email: 'bob.example.com' } },
        error('attendee_email_invalid', { fields: ['attendee.email'] }),
        'attendee.email must be an email address of at most 254 characters.',
      ],
      ['count 0', { count: 0 }, COUNT_OUT_OF_RANGE, 'count must be 1 to 42.'],
      ['count 43', { count: 43 }, COUNT_OUT_OF_RANGE, 'count must be 1 to 42.'],
      // Issue 29 item 13: past the safe integers this said "Too big: expected int to be <=9007199254740991".
      ['count 1e308', { count: 1e308 }, COUNT_OUT_OF_RANGE, 'count must be 1 to 42.'],
      ['count -1e308', { count: -1e308 }, COUNT_OUT_OF_RANGE, 'count must be 1 to 42.'],
      [
        'a recurring-off event type',
        { event_type_id: SERIES_ET.single },
        error('recurring_disabled'),
        'This event type does not allow recurring series.',
      ],
      [
        'an inactive event type',
        { event_type_id: SERIES_ET.inactive },
        error('event_type_inactive'),
        'This event type is not taking bookings.',
      ],
      ['an unknown event type id', { event_type_id: NOBODY }, ET_NOT_FOUND, 'No such event type.'],
      ['an unknown event_slug', { event_type_id: undefined, username: 'hana', event_slug: 'nope' }, ET_NOT_FOUND, 'No such event type.'],
      ['an unknown username', { event_type_id: undefined, username: 'nobody', event_slug: 'weekly' }, ET_NOT_FOUND, 'No such event type.'],
      ["another user's event type, by id", { event_type_id: SERIES_ET.ivanWeekly }, ET_NOT_FOUND, 'No such event type.'],
      [
        "another user's event type, by name",
        { event_type_id: undefined, username: 'ivan', event_slug: 'weekly' },
        ET_NOT_FOUND,
        'No such event type.',
      ],
      [
        'a host the user may not act for',
        { host_user_id: USER.ivan },
        HOST_NOT_ALLOWED,
        'host_user_id is not someone this caller may act for.',
      ],
      ['an unknown host', { host_user_id: NOBODY }, HOST_NOT_ALLOWED, 'host_user_id is not someone this caller may act for.'],
      [
        'a host by username the user may not act for',
        { host_user_id: undefined, host_username: 'ivan' },
        HOST_BY_NAME_NOT_ALLOWED,
        'host_username is not someone this caller may act for.',
      ],
      [
        'an unknown host username',
        { host_user_id: undefined, host_username: 'nobody' },
        HOST_BY_NAME_NOT_ALLOWED,
        'host_username is not someone this caller may act for.',
      ],
      [
        'every date outside working hours: 409 no_dates_free listing every candidate',
        { weekdays: ['sat', 'sun'], count: 3 },
        noDatesFree(
          ['2026-03-07', '2026-03-07T10:00Z', 'outside_working_hours'],
          ['2026-03-08', '2026-03-08T10:00Z', 'outside_working_hours'],
          ['2026-03-14', '2026-03-14T10:00Z', 'outside_working_hours'],
        ),
        'The host is free on none of the pattern dates; nothing was created.',
      ],
      [
        'a meeting that would end after working hours (16:45 + 30)',
        { weekdays: ['mon'], time: '16:45', count: 1 },
        noDatesFree(['2026-03-02', '2026-03-02T16:45Z', 'outside_working_hours']),
        'The host is free on none of the pattern dates; nothing was created.',
      ],
    ])('refuses %s', async (_, changes, expected, message) => {
      expect(await refusal(seriesBody(changes))).toEqual({ ...expected, message });
    });

    it("refuses with 409 no_dates_free when the host's bookings take every date: they are read under the host's lock", async () => {
      await resetSeriesWorkspace({ store, clock }, [
        importedBooking(B1, 'hana', '2026-03-02T10:00:00Z'),
        importedBooking(B2, 'hana', '2026-03-04T10:00:00Z'),
      ]);
      expect(await refusal(seriesBody({ count: 2 }))).toEqual({
        ...noDatesFree(['2026-03-02', '2026-03-02T10:00Z', 'busy'], ['2026-03-04', '2026-03-04T10:00Z', 'busy']),
        message: 'The host is free on none of the pattern dates; nothing was created.',
      });
    });

    it.each([
      ['mona, for sam whom she does not manage', 'mona', USER.sam],
      ['mona, for an unknown user', 'mona', NOBODY],
      ['the admin, for an unknown user', 'ada', NOBODY],
    ] as const)('refuses with 403 host_not_allowed: %s', async (_, caller, host) => {
      expect(await refusal(seriesBody({ host_user_id: host }), who[caller])).toEqual({
        ...HOST_NOT_ALLOWED,
        message: 'host_user_id is not someone this caller may act for.',
      });
    });

    it.each([
      ['mona, for sam whom she does not manage', 'mona', 'sam'],
      ['mona, for an unknown username', 'mona', 'nobody'],
      ['the admin, for an unknown username', 'ada', 'nobody'],
      ['hana, for her own username in capitals (usernames match exactly)', 'hana', 'HANA'],
    ] as const)('refuses a host by username with 403 host_not_allowed naming host_username: %s', async (_, caller, username) => {
      const body = seriesBody({ host_user_id: undefined, host_username: username });
      expect(await refusal(body, who[caller])).toEqual({
        ...HOST_BY_NAME_NOT_ALLOWED,
        message: 'host_username is not someone this caller may act for.',
      });
    });

    it.each([
      ['the body shape before count', { count: 0, time: '25:00' }, invalidFields('time'), 'time: must be HH:MM, 24-hour'],
      [
        'a missing event type (body shape) before count',
        { event_type_id: undefined, count: 0 },
        invalidFields('event_type_id'),
        'event_type_id: name the event type: event_type_id, or both username and event_slug',
      ],
      [
        'a missing event type (body shape) before the host',
        { event_type_id: undefined, host_user_id: USER.ivan },
        invalidFields('event_type_id'),
        'event_type_id: name the event type: event_type_id, or both username and event_slug',
      ],
      ['count before the host', { count: 0, host_user_id: USER.ivan }, COUNT_OUT_OF_RANGE, 'count must be 1 to 42.'],
      [
        'the host before the event type',
        { host_user_id: USER.ivan, event_type_id: NOBODY },
        HOST_NOT_ALLOWED,
        'host_user_id is not someone this caller may act for.',
      ],
    ])('checks %s', async (_, changes, expected, message) => {
      expect(await refusal(seriesBody(changes))).toEqual({ ...expected, message });
    });

    it('checks the event type before reading the calendar (rick, whose feed cannot be read)', async () => {
      expect(await refusal(seriesBody({ host_user_id: USER.rick, event_type_id: SERIES_ET.inactive }), who.ada)).toEqual({
        ...error('event_type_inactive'),
        message: 'This event type is not taking bookings.',
      });
    });

    it.each([
      ['hanaRead', { required_scope: 'series:write' }],
      ['hanaBookings', { required_scope: 'series:write' }],
    ] as const)('refuses a token without series:write (%s) with insufficient_scope', async (token, details) => {
      expect(await refusal(seriesBody(), who[token])).toEqual({
        ...error('insufficient_scope', details),
        message: 'This token lacks the scope series:write.',
      });
    });

    it('refuses a create without an Idempotency-Key with 400 missing_idempotency_key', async () => {
      const call = { params: {}, query: {}, body: seriesBody() };
      expect(await scheduleErrorOf(execute(deps, createSeriesOperation, who.hana, call, 'req-no-key'))).toEqual({
        ...error('missing_idempotency_key'),
        message: 'This operation requires an Idempotency-Key.',
      });
      expect(await writesOf(store)).toEqual(NOTHING_WRITTEN);
    });

    it("answers 503 availability_unavailable (Retry-After 30) when rick's feed cannot be read, then the same key books once it can", async () => {
      const body = seriesBody({ host_user_id: USER.rick, event_type_id: SERIES_ET.rickWeekly });
      const first = await scheduleErrorOf(createSeries(deps, who.ada, body, { key: 'k-rick' }));
      expect(first).toEqual({
        ...error('availability_unavailable', {}, 30),
        message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
      });
      expect(await writesOf(store)).toEqual(NOTHING_WRITTEN);

      const readable = testDeps(store, clock, { calendars: createCalendarReader(async () => []) });
      const retried = await createSeries(readable, who.ada, body, { key: 'k-rick' });
      const data = retried.outcome.data as CreateSeriesResult;
      expect({ replayed: retried.replayed, status: retried.outcome.status, series: data.series, count: data.occurrences.length }).toEqual({
        replayed: false,
        status: 201,
        series: seriesView(data.series.uid, { host: HOST_OF.rick, event_type: EVENT_TYPE_VIEW.rickWeekly }),
        count: 4,
      });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the same key and body: the first answer, replayed, one series written', async () => {
      const first = await createSeries(deps, who.hana, seriesBody(), { key: 'k-same' });
      clock.advance(60_000);
      // The same body with its keys in another order: bodies compare by canonical JSON.
      const reordered = Object.fromEntries(Object.entries(seriesBody()).reverse());
      const again = await createSeries(deps, who.hana, reordered, { key: 'k-same' });
      expect(again).toEqual({ ...first, replayed: true });
      expect(await writesOf(store)).toEqual({ series: 1, occurrences: 4, notifications: 5, outbox: 5, idempotencyKeys: 1 });
    });

    it('refuses the same key with another body: 409 idempotency_key_conflict, nothing more written', async () => {
      await createSeries(deps, who.hana, seriesBody(), { key: 'k-conflict' });
      const seen = await scheduleErrorOf(createSeries(deps, who.hana, seriesBody({ count: 3 }), { key: 'k-conflict' }));
      expect(seen).toEqual({
        ...error('idempotency_key_conflict'),
        message: 'This Idempotency-Key was used within the last 24 hours with a different request.',
      });
      expect(await writesOf(store)).toEqual({ series: 1, occurrences: 4, notifications: 5, outbox: 5, idempotencyKeys: 1 });
    });
  });

  describe('events and mail of a create', () => {
    it('records one series.created with the answer and one booking.created per occurrence', async () => {
      const { series, occurrences, skipped } = await created(seriesBody());
      const bookings = await Promise.all(
        occurrences.map(async (o) => ({ ...((await getBooking(o.uid)).data as { uid: string }), series_uid: series.uid })),
      );
      const events = (await outboxOf(store)).sort((a, b) =>
        `${a.event_type}${a.subject_uid}`.localeCompare(`${b.event_type}${b.subject_uid}`),
      );
      const expected = [
        ...bookings.map((payload) => ({
          event_type: 'booking.created',
          subject_uid: payload.uid,
          created_at: S0,
          dispatched_at: null,
          payload,
        })),
        {
          event_type: 'series.created',
          subject_uid: series.uid,
          created_at: S0,
          dispatched_at: null,
          payload: { ...series, occurrences, skipped },
        },
      ].sort((a, b) => `${a.event_type}${a.subject_uid}`.localeCompare(`${b.event_type}${b.subject_uid}`));
      expect(events).toEqual(expected);
    });

    it('queues one series_confirmation to the attendee listing the occurrences and the skipped dates', async () => {
      await resetSeriesWorkspace({ store, clock }, [importedBooking(B1, 'hana', '2026-03-04T10:00:00Z')]);
      const { series, occurrences } = await created(seriesBody());
      const all = await notificationsOf(store);
      // Each occurrence's invite goes in a booking mail of its own, to the attendee (docs/mail.md).
      expect(all.filter((n) => n.kind === 'booking_created').map((n) => [n.booking_uid, n.recipient, n.payload.role])).toEqual(
        expect.arrayContaining(occurrences.map((o) => [o.uid, 'bob@example.com', 'attendee'])),
      );
      expect(all).toHaveLength(1 + occurrences.length);
      const mail = all
        .filter((n) => n.kind === 'series_confirmation')
        .map(({ kind, series_uid, recipient, status, payload }) => ({
          kind,
          series_uid,
          recipient,
          status,
          payload,
        }));
      expect(mail).toEqual([
        {
          kind: 'series_confirmation',
          series_uid: series.uid,
          recipient: 'bob@example.com',
          status: 'pending',
          payload: {
            attendee_name: 'Bob Stone',
            attendee_email: 'bob@example.com',
            event_type_name: 'Weekly',
            host_name: 'Hana Host',
            host_email: 'hana@acme.test',
            timezone: 'UTC',
            // Each occurrence's booking, new (version 1), with its own conference link.
            occurrences: occurrences.map(({ uid, start_at, end_at }) => ({
              start_at,
              end_at,
              uid,
              sequence: 1,
              location_url: `https://meet.test/${uid}`,
            })),
            skipped: [{ date: '2026-03-04', start_at: '2026-03-04T10:00:00.000Z' }],
            location_url: null,
          },
        },
      ]);
    });

    it('queues no mail when notify_invitee is false, though the events are recorded', async () => {
      await created(seriesBody({ notify_invitee: false }));
      expect(await writesOf(store)).toEqual({ series: 1, occurrences: 4, notifications: 0, outbox: 5, idempotencyKeys: 1 });
    });
  });
});
