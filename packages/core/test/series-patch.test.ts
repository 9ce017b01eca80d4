import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HELD_REASON } from '../src/series/hold-occurrence.js';
import { cancelBooking, outboxOf, rescheduleBooking } from './support/booking-calls.js';
import { scheduleErrorOf } from './support/errors.js';
import { occurrenceRowsOf, owedRowsOf, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import {
  at,
  bookingNow,
  type CreatedSeries,
  heldPlusOwed,
  MON_WED_DATES,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seen,
  seriesCreated,
  seriesNow,
  weeklyBody,
} from './support/series-scenario.js';
import { SERIES_ET } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

/** Wednesday 2026-03-04 12:00 UTC: the first two occurrences of the standard series are past. */
const AFTER_SECOND = '2026-03-04T12:00:00.000Z';
const OLD_LINK = 'https://meet.example/old';
const NEW_LINK = 'https://meet.example/new';

describe.each(storeFixtures())('PATCH /v1/series/:uid on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  afterAll(() => fixture.cleanup());

  /** Resets, then creates hana's standard series with these body changes. */
  const start = async (changes: Record<string, unknown> = {}) => {
    await resetSeriesScenario(s);
    created = await seriesCreated(s, weeklyBody(changes));
    uid = created.series.uid;
  };
  const occurrence = (i: number) => created.occurrences[i]!;
  const patch = (body: unknown, ifMatch = '"1"') => updateSeries(s.deps, s.as.hana, uid, body, { ifMatch });
  const refusal = (body: unknown, ifMatch = '"1"') => scheduleErrorOf(patch(body, ifMatch));
  /** The confirmed occurrences: where they are, which instant they hold, and what they replaced. */
  const live = async () =>
    (await occurrenceRowsOf(s.store, uid))
      .filter((o) => o.status === 'confirmed')
      .map(({ uid, start_at, pattern_instant, rescheduled_from_uid }) => ({ uid, start_at, pattern_instant, rescheduled_from_uid }));
  /** An occurrence the create booked, untouched. */
  const kept = (i: number) => ({
    uid: occurrence(i).uid,
    start_at: at(MON_WED_DATES[i]!),
    pattern_instant: at(MON_WED_DATES[i]!),
    rescheduled_from_uid: null,
  });
  /** A replacement for occurrence i at `instant`. */
  const replacing = (i: number, instant: string) => ({
    uid: expect.any(String),
    start_at: instant,
    pattern_instant: instant,
    rescheduled_from_uid: occurrence(i).uid,
  });
  const unchangedSeries = async () => {
    expect(await seriesNow(s, uid)).toEqual(created.series);
    expect(await live()).toEqual(MON_WED_DATES.map((_, i) => kept(i)));
  };

  describe('If-Match', () => {
    beforeEach(() => start());

    it('a PATCH without If-Match is 428 missing_if_match', async () => {
      // Passed explicitly: the helpers' default If-Match would stand in for a missing argument.
      expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: undefined }))).toEqual({
        ...seen('missing_if_match'),
        message: 'This operation requires an If-Match with the current version.',
      });
      await unchangedSeries();
    });

    it.each(['"0"', '2', '"2"'])('a stale If-Match (%s) is 409 version_conflict with the current version', async (ifMatch) => {
      expect(await refusal({ time: '11:00' }, ifMatch)).toEqual({
        ...seen('version_conflict', { current_version: 1 }),
        message: 'The series changed since it was read; read it again and retry.',
      });
      await unchangedSeries();
    });

    it.each(['garbage', 'W/"1"', ''])('an If-Match that is no version (%j) cannot match: 409 version_conflict', async (ifMatch) => {
      expect(await refusal({ time: '11:00' }, ifMatch)).toEqual({
        ...seen('version_conflict', { current_version: 1 }),
        message: 'The series changed since it was read; read it again and retry.',
      });
      await unchangedSeries();
    });

    it('an If-Match read before another action is stale', async () => {
      await pauseSeries(s.deps, s.as.hana, uid);
      expect(await refusal({ notify_invitee: false }, '"1"')).toEqual({
        ...seen('version_conflict', { current_version: 2 }),
        message: 'The series changed since it was read; read it again and retry.',
      });
      expect((await patch({ notify_invitee: false }, '"2"')).outcome.version).toBe(3);
    });

    it.each(['"1"', '1', '*'])('If-Match %s proceeds', async (ifMatch) => {
      const patched = await patch({ notify_invitee: false }, ifMatch);
      expect(patched.outcome.version).toBe(2);
    });
  });

  describe('refused changes', () => {
    beforeEach(() => start({ location_url: OLD_LINK }));

    it('starts_on, count, the attendee, the event type and unknown keys are 422 invalid_change naming every one', async () => {
      const body = {
        starts_on: '2026-04-01',
        time: '11:00',
        count: 3,
        attendee: { email: 'other@example.com' },
        event_type_id: SERIES_ET.short,
        color: 'red',
      };
      expect(await refusal(body)).toEqual({
        ...seen('invalid_change', { fields: ['starts_on', 'count', 'attendee', 'event_type_id', 'color'] }),
        message:
          'These fields cannot be changed this way: starts_on, count, attendee, event_type_id, color. Only frequency, interval_weeks, weekdays, time, location_url, notify_invitee can be patched, and location_url cannot be cleared.',
      });
      expect(await seriesNow(s, uid)).toEqual(created.series);
    });

    it('a null location_url is 422 invalid_change', async () => {
      expect(await refusal({ location_url: null })).toEqual({
        ...seen('invalid_change', { fields: ['location_url'] }),
        message:
          'These fields cannot be changed this way: location_url. Only frequency, interval_weeks, weekdays, time, location_url, notify_invitee can be patched, and location_url cannot be cleared.',
      });
      expect(await seriesNow(s, uid)).toEqual(created.series);
    });

    it('a series created without a location_url cannot gain one: 422 invalid_change', async () => {
      await start();
      expect(await refusal({ location_url: NEW_LINK })).toEqual({
        ...seen('invalid_change', { fields: ['location_url'] }),
        message: 'A series created without a location_url cannot gain one.',
      });
      await unchangedSeries();
    });

    it.each([
      [{ time: '25:00' }, ['time'], 'time: must be HH:MM, 24-hour'],
      [{ time: '9:00' }, ['time'], 'time: must be HH:MM, 24-hour'],
      [{ weekdays: ['mon', 'mon'] }, ['weekdays'], 'weekdays: must not list a day twice'],
      [{ weekdays: ['someday'] }, ['weekdays.0'], 'weekdays.0: must be one of sun, mon, tue, wed, thu, fri, sat'],
      [{ interval_weeks: 9 }, ['interval_weeks'], 'interval_weeks: must be an integer from 1 to 8'],
      [{ frequency: 'daily' }, ['frequency'], 'frequency: must be one of weekly, monthly_same_day'],
      [{ location_url: 'ftp://files.example/x' }, ['location_url'], 'location_url: must be an http(s) URL'],
      [{ notify_invitee: 'no' }, ['notify_invitee'], 'notify_invitee: must be true or false, not a string'],
    ])('a malformed value %j is 400 validation_error', async (body, fields, message) => {
      expect(await refusal(body)).toEqual({ ...seen('validation_error', { fields }), message });
      expect(await seriesNow(s, uid)).toEqual(created.series);
    });

    it('a weekly series cannot have its weekdays emptied: 400 validation_error', async () => {
      expect(await refusal({ weekdays: [] })).toEqual({
        ...seen('validation_error', { fields: ['weekdays'] }),
        message: 'weekdays: a weekly series needs at least one weekday.',
      });
      expect(await seriesNow(s, uid)).toEqual(created.series);
    });

    it('a monthly series switched to weekly needs weekdays: 400 validation_error', async () => {
      await start({ frequency: 'monthly_same_day', weekdays: undefined, count: 2 });
      expect(await refusal({ frequency: 'weekly' })).toEqual({
        ...seen('validation_error', { fields: ['weekdays'] }),
        message: 'weekdays: a weekly series needs at least one weekday.',
      });
      expect(await refusal({ frequency: 'weekly', weekdays: [] })).toEqual({
        ...seen('validation_error', { fields: ['weekdays'] }),
        message: 'weekdays: a weekly series needs at least one weekday.',
      });
      expect(await seriesNow(s, uid)).toEqual(created.series);
    });

    it('an empty body is 400 validation_error', async () => {
      expect(await refusal({})).toEqual({
        ...seen('validation_error', { fields: [] }),
        message: 'Send at least one of frequency, interval_weeks, weekdays, time, location_url, notify_invitee.',
      });
      expect(await seriesNow(s, uid)).toEqual(created.series);
    });
  });

  describe('restamping in place', () => {
    it('a location_url change restamps the future confirmed occurrences in place, not past or canceled ones', async () => {
      await start({ location_url: OLD_LINK });
      s.clock.set(AFTER_SECOND);
      await cancelBooking(s.deps, s.as.hana, occurrence(3).uid, {}, 'cancel-3');

      const patched = await patch({ location_url: NEW_LINK });

      const series = { ...created.series, location_url: NEW_LINK, version: 2, updated_at: AFTER_SECOND };
      expect(patched.outcome).toEqual({ status: 200, data: { series, resumed: null }, version: 2 });
      expect(await seriesNow(s, uid)).toEqual(series);
      const link = (url: string) => ({ type: 'link', url, value: null });
      for (const i of [2, 4, 5]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({
          uid: occurrence(i).uid,
          status: 'confirmed',
          version: 2,
          start_at: at(MON_WED_DATES[i]!),
          location: link(NEW_LINK),
        });
      }
      for (const i of [0, 1]) expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({ version: 1, location: link(OLD_LINK) });
      expect(await bookingNow(s, occurrence(3).uid)).toMatchObject({ status: 'canceled', version: 2, location: link(OLD_LINK) });
      // Issue 30 item 11: its own event, not booking.updated, which api.md keeps for PATCH /v1/bookings/:uid.
      const events = (await outboxOf(s.store)).filter(
        (e) => e.created_at === AFTER_SECOND && e.event_type !== 'booking.canceled' && e.event_type.startsWith('booking.'),
      );
      expect(events.map((e) => [e.event_type, e.subject_uid]).sort()).toEqual(
        [2, 4, 5].map((i) => ['booking.location_changed', occurrence(i).uid]).sort(),
      );
      for (const event of events) expect(event.payload).toEqual({ ...(await bookingNow(s, event.subject_uid)), series_uid: uid });
    });

    it('replacements booked after a location_url change carry the new link', async () => {
      await start({ location_url: OLD_LINK });
      await pauseSeries(s.deps, s.as.hana, uid);
      await patch({ location_url: NEW_LINK }, '"2"');

      await resumeSeries(s.deps, s.as.hana, uid);

      const replacements = (await occurrenceRowsOf(s.store, uid)).filter((o) => o.status === 'confirmed');
      expect(replacements).toHaveLength(6);
      for (const r of replacements) {
        expect(await bookingNow(s, r.uid)).toMatchObject({ location: { type: 'link', url: NEW_LINK, value: null } });
      }
    });

    it('a notify_invitee change restamps nothing', async () => {
      await start();

      const patched = await patch({ notify_invitee: false });

      const series = { ...created.series, notify_invitee: false, version: 2 };
      expect(patched.outcome).toEqual({ status: 200, data: { series, resumed: null }, version: 2 });
      expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.version)).toEqual([1, 1, 1, 1, 1, 1]);
    });
  });

  describe('pattern changes', () => {
    it('a time change holds the future not-moved occurrences and books them at the new time after every held instant', async () => {
      await start();
      s.clock.set(AFTER_SECOND);
      // Moved by the invitee: it keeps holding 03-11 10:00 and is never held by a PATCH.
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');

      const patched = await patch({ time: '11:00' });

      const series = { ...created.series, time: '11:00', version: 2, updated_at: AFTER_SECOND };
      expect(patched.outcome).toEqual({
        status: 200,
        data: { series, resumed: { created: 3, skipped: [], owed: 0, superseded: false } },
        version: 2,
      });
      expect(await seriesNow(s, uid)).toEqual(series);
      expect(await live()).toEqual([
        kept(0),
        kept(1),
        // Rule 2: the first 11:00 instant after the latest held instant, the moved one's 03-11 10:00.
        replacing(2, at('2026-03-11', '11:00')),
        { uid: occurrence(3).uid, start_at: '2026-03-12T14:00:00.000Z', pattern_instant: at('2026-03-11'), rescheduled_from_uid: null },
        replacing(4, at('2026-03-16', '11:00')),
        replacing(5, at('2026-03-18', '11:00')),
      ]);
      for (const i of [2, 4, 5]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({ status: 'canceled', cancellation_reason: HELD_REASON });
      }
      expect(await heldPlusOwed(s, uid)).toBe(6);
    });

    it('a weekdays change holds only what the new pattern no longer generates and appends replacements after the last held instant', async () => {
      await start();

      const patched = await patch({ weekdays: ['mon', 'fri'] });

      expect(patched.outcome.data).toEqual({
        series: { ...created.series, weekdays: ['mon', 'fri'], version: 2 },
        resumed: { created: 3, skipped: [], owed: 0, superseded: false },
      });
      expect(patched.outcome.version).toBe(2);
      // The Mondays are still generated and stay as they were (same uid, version 1).
      expect(await live()).toEqual([
        kept(0),
        kept(2),
        kept(4),
        replacing(1, at('2026-03-20')),
        replacing(3, at('2026-03-23')),
        replacing(5, at('2026-03-27')),
      ]);
      for (const i of [0, 2, 4]) expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({ status: 'confirmed', version: 1 });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 2 });
    });

    it('a frequency change skips new-pattern dates the host is not free at; they stay owed and the status is kept', async () => {
      await start();

      const patched = await patch({ frequency: 'monthly_same_day' });

      // 03-02 is the 2nd of a month and stays; the rest go to the next 2nds after it. 05-02 and 08-02 are weekend days.
      expect(patched.outcome.data).toEqual({
        series: { ...created.series, frequency: 'monthly_same_day', version: 2 },
        resumed: {
          created: 3,
          skipped: [
            { date: '2026-05-02', start_at: at('2026-05-02'), reason: 'conflict', cause: 'outside_working_hours' },
            { date: '2026-08-02', start_at: at('2026-08-02'), reason: 'conflict', cause: 'outside_working_hours' },
          ],
          owed: 2,
          superseded: false,
        },
      });
      expect(await live()).toEqual([
        kept(0),
        replacing(1, at('2026-04-02')),
        replacing(3, at('2026-06-02')),
        replacing(4, at('2026-07-02')),
      ]);
      expect(await owedRowsOf(s.store, uid)).toEqual([
        { pattern_instant: at('2026-03-09'), held_booking_uid: occurrence(2).uid },
        { pattern_instant: at('2026-03-18'), held_booking_uid: occurrence(5).uid },
      ]);
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 2 });
      expect(await heldPlusOwed(s, uid)).toBe(6);

      // A later call gives each owed entry a target again, after everything the series holds.
      expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({
        created: 1,
        skipped: [{ date: '2026-08-02', start_at: at('2026-08-02'), reason: 'conflict', cause: 'outside_working_hours' }],
        owed: 1,
        superseded: false,
      });
      expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ created: 1, skipped: [], owed: 0, superseded: false });
      expect((await live()).slice(-2)).toEqual([replacing(5, at('2026-09-02')), replacing(2, at('2026-10-02'))]);
      expect(await heldPlusOwed(s, uid)).toBe(6);
    });

    it('a pattern change on a paused series keeps it paused but still runs the replacement step', async () => {
      await start();
      await pauseSeries(s.deps, s.as.hana, uid);

      const patched = await patch({ time: '11:00' }, '"2"');

      expect(patched.outcome.data).toEqual({
        series: { ...created.series, time: '11:00', status: 'paused', version: 3 },
        resumed: { created: 6, skipped: [], owed: 0, superseded: false },
      });
      expect(patched.outcome.version).toBe(3);
      expect(await live()).toEqual(MON_WED_DATES.map((d, i) => replacing(i, at(d, '11:00'))));
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 3 });
      expect(await owedRowsOf(s.store, uid)).toEqual([]);
    });

    it('on a paused series, owed entries the new pattern still generates are restored at their own instants (rule 1)', async () => {
      await start();
      await pauseSeries(s.deps, s.as.hana, uid);

      const patched = await patch({ weekdays: ['mon', 'fri'] }, '"2"');

      expect(patched.outcome.data).toMatchObject({ resumed: { created: 6, skipped: [], owed: 0, superseded: false } });
      expect(await live()).toEqual([
        replacing(0, at('2026-03-02')),
        replacing(2, at('2026-03-09')),
        replacing(4, at('2026-03-16')),
        // Rule 2 for the Wednesdays, after the last instant rule 1 gave.
        replacing(1, at('2026-03-20')),
        replacing(3, at('2026-03-23')),
        replacing(5, at('2026-03-27')),
      ]);
      expect(await heldPlusOwed(s, uid)).toBe(6);
    });

    it('a pattern change that generates every current instant holds nothing and still answers resumed', async () => {
      await start();

      const patched = await patch({ weekdays: ['wed', 'mon'], interval_weeks: 1 });

      expect(patched.outcome.data).toEqual({
        series: { ...created.series, weekdays: ['wed', 'mon'], version: 2 },
        resumed: { created: 0, skipped: [], owed: 0, superseded: false },
      });
      expect(await live()).toEqual(MON_WED_DATES.map((_, i) => kept(i)));
    });
  });
});
