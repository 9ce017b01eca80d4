import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type CalendarReader, CalendarUnreadable, createCalendarReader } from '../src/availability/calendar-reader.js';
import { ENDED_REASON } from '../src/series/end-series.js';
import { HELD_REASON } from '../src/series/hold-occurrence.js';
import { cancelBooking, createBooking, outboxOf, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import {
  changeSeriesHost,
  createSeries,
  endSeries,
  getSeries,
  occurrenceRowsOf,
  owedRowsOf,
  pauseSeries,
  resumeSeries,
  updateSeries,
} from './support/series-calls.js';
import {
  at,
  bookingNow,
  type CreatedSeries,
  ivanBooking,
  MON_WED_DATES,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seen,
  seriesCreated,
  seriesNow,
  weeklyBody,
} from './support/series-scenario.js';
import { HOST_OF, SERIES_ET, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

/** Wednesday 2026-03-04 12:00 UTC: the first two occurrences of the standard series are past. */
const AFTER_SECOND = '2026-03-04T12:00:00.000Z';
const IVAN_BUSY = '90000000-0000-4000-8000-000000000001';

describe.each(storeFixtures())('series end and host change on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  afterAll(() => fixture.cleanup());

  const occurrence = (i: number) => created.occurrences[i]!;
  /** Where each of the series' bookings is and who hosts it, by start. */
  const hostsOf = async () => (await occurrenceRowsOf(s.store, uid)).map(({ start_at, host_user_id }) => ({ start_at, host_user_id }));

  describe('end', () => {
    beforeEach(async () => {
      await resetSeriesScenario(s);
      created = await seriesCreated(s);
      uid = created.series.uid;
    });
    const end = (key?: string) => endSeries(s.deps, s.as.hana, uid, { key });

    it('cancels every future confirmed occurrence, the invitee-moved one too, and leaves past ones alone', async () => {
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');

      const ended = await end();

      expect(ended.outcome).toEqual({ status: 200, data: { canceled: 4, superseded: false } });
      for (const i of [2, 3, 4, 5]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({
          status: 'canceled',
          cancelled_at: AFTER_SECOND,
          cancellation_reason: ENDED_REASON,
          // The moved one was version 2 after its reschedule.
          version: i === 3 ? 3 : 2,
        });
      }
      for (const i of [0, 1]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({ status: 'confirmed', version: 1, cancellation_reason: null });
      }
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'ended', ended_at: AFTER_SECOND, updated_at: AFTER_SECOND, version: 2 });
    });

    it('clears the owed entries of a paused series and leaves its held occurrences as they were', async () => {
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');
      await pauseSeries(s.deps, s.as.hana, uid);
      expect(await owedRowsOf(s.store, uid)).toHaveLength(3);
      s.clock.set('2026-03-05T09:00:00.000Z');

      const ended = await end();

      // Only the moved occurrence was still confirmed.
      expect(ended.outcome.data).toEqual({ canceled: 1, superseded: false });
      expect(await owedRowsOf(s.store, uid)).toEqual([]);
      expect(await bookingNow(s, occurrence(2).uid)).toMatchObject({ status: 'canceled', cancellation_reason: HELD_REASON, version: 2 });
      expect(await bookingNow(s, occurrence(3).uid)).toMatchObject({ status: 'canceled', cancellation_reason: ENDED_REASON });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'ended', ended_at: '2026-03-05T09:00:00.000Z', version: 3 });
    });

    it('every action on an ended series answers 409 series_ended and changes nothing', async () => {
      await end('end-key');
      const before = await seriesNow(s, uid);

      expect(await scheduleErrorOf(pauseSeries(s.deps, s.as.hana, uid))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(pauseSeries(s.deps, s.as.hana, uid, { key: 'pause-ended' }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(resumeSeries(s.deps, s.as.hana, uid))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      // series_ended comes before the If-Match check and the host check.
      expect(await scheduleErrorOf(resumeSeries(s.deps, s.as.hana, uid, { ifMatch: '"1"' }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(end('end-key-2'))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(changeSeriesHost(s.deps, s.as.hana, uid, { host_user_id: USER.hana }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(changeSeriesHost(s.deps, s.as.hana, uid, { host_user_id: USER.ivan }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '"2"' }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { notify_invitee: false }, { ifMatch: '*' }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      // Before the PATCH's own checks too: a stale If-Match, gaining a location_url.
      expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '"1"' }))).toEqual({
        ...seen('series_ended'),
        message: 'The series is ended; nothing can change it.',
      });
      expect(
        await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { location_url: 'https://meet.example/x' }, { ifMatch: '"2"' })),
      ).toEqual({ ...seen('series_ended'), message: 'The series is ended; nothing can change it.' });
      expect(await seriesNow(s, uid)).toEqual(before);
    });

    it('end replayed with the same key returns the stored 200', async () => {
      const first = await end('end-key');
      const replay = await end('end-key');

      expect(first).toMatchObject({ replayed: false, outcome: { status: 200, data: { canceled: 6, superseded: false } } });
      expect(replay).toMatchObject({ replayed: true, outcome: first.outcome });
      expect((await seriesNow(s, uid)).version).toBe(2);
    });
  });

  describe('host change', () => {
    beforeEach(async () => {
      await resetSeriesScenario(s);
      created = await seriesCreated(s);
      uid = created.series.uid;
    });
    const moveTo = (hostUserId: string, principal = s.as.mona, deps = s.deps, key?: string) =>
      changeSeriesHost(deps, principal, uid, { host_user_id: hostUserId }, { key });

    /**
     * hana's series of four, whose fourth occurrence (Wednesday 03-11) stays owed after a resume because a booking of
     * hana's takes its time. Answers what books it: the time freed, a resume.
     */
    const owingTheEleventh = async () => {
      await resetSeriesScenario(s);
      created = await seriesCreated(s, weeklyBody({ count: 4 }));
      uid = created.series.uid;
      await pauseSeries(s.deps, s.as.hana, uid);
      const body = { event_type_id: SERIES_ET.weekly, start: '2026-03-11T10:00:00Z', attendee: { email: 'dan@example.com' } };
      const blocker = (await createBooking(s.deps, s.as.hana, body, 'blocker')).outcome.data as { uid: string };
      expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toMatchObject({ created: 3, owed: 1 });
      return async () => {
        await cancelBooking(s.deps, s.as.hana, blocker.uid, {}, 'free-it');
        expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toMatchObject({ created: 1, owed: 0 });
      };
    };

    it('moves every future confirmed occurrence to the new host, then the series', async () => {
      s.clock.set(AFTER_SECOND);

      const changed = await moveTo(USER.ivan);

      expect(changed.outcome).toEqual({ status: 200, data: { moved: 4, unchanged: 0, stopped_by: null, superseded: false } });
      for (const i of [2, 3, 4, 5]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({
          status: 'confirmed',
          version: 2,
          start_at: at(MON_WED_DATES[i]!),
          host: HOST_OF.ivan,
          title: 'Weekly between Ivan Host and Bob Invitee',
          calendar_sync_status: 'not_applicable',
        });
      }
      for (const i of [0, 1]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({
          version: 1,
          host: HOST_OF.hana,
          title: 'Weekly between Hana Host and Bob Invitee',
        });
      }
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.ivan, status: 'active', version: 2, updated_at: AFTER_SECOND });
    });

    // Issue 30 item 11: this was booking.updated with changed_fields ["host"], which api.md keeps for PATCH /v1/bookings/:uid.
    it('records booking.host_changed for each moved occurrence, naming the new host, then series.host_changed with the counts', async () => {
      s.clock.set(AFTER_SECOND);

      await moveTo(USER.ivan);

      // The outbox keeps the order of its ids, not of writing, for events of one instant.
      const events = (await outboxOf(s.store)).filter((e) => e.created_at === AFTER_SECOND);
      const subjects = (type: string) => events.filter((e) => e.event_type === type).map((e) => e.subject_uid);
      expect(subjects('booking.host_changed').sort()).toEqual([2, 3, 4, 5].map((i) => occurrence(i).uid).sort());
      expect(subjects('booking.updated')).toEqual([]);
      expect(subjects('series.host_changed')).toEqual([uid]);
      expect(events).toHaveLength(5);
      for (const i of [2, 3, 4, 5]) {
        const payload = events.find((e) => e.subject_uid === occurrence(i).uid)!.payload;
        expect(payload).toEqual({ ...(await bookingNow(s, occurrence(i).uid)), series_uid: uid });
        expect(payload.host).toEqual(HOST_OF.ivan);
      }
      const changed = events.find((e) => e.event_type === 'series.host_changed')!.payload;
      expect(changed).toEqual({ ...(await seriesNow(s, uid)), moved: 4, unchanged: 0 });
    });

    it('a repeat to the same host moves nothing and counts every future occurrence as unchanged', async () => {
      await moveTo(USER.ivan);

      const again = await moveTo(USER.ivan);

      expect(again.outcome.data).toEqual({ moved: 0, unchanged: 6, stopped_by: null, superseded: false });
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.ivan, status: 'active', version: 3 });
    });

    it('an admin may move a series to anyone', async () => {
      expect((await moveTo(USER.sam, s.as.ada)).outcome.data).toEqual({ moved: 6, unchanged: 0, stopped_by: null, superseded: false });
      expect((await seriesNow(s, uid)).host).toEqual(HOST_OF.sam);
    });

    it('a new host outside the caller’s set, or unknown, is 403 host_not_allowed and nothing changes', async () => {
      const refused = seen('host_not_allowed', { fields: ['host_user_id'] });

      expect(await scheduleErrorOf(moveTo(USER.ivan, s.as.hana))).toEqual({
        ...refused,
        message: 'host_user_id is not someone this caller may act for.',
      });
      expect(await scheduleErrorOf(moveTo(USER.rick, s.as.mona))).toEqual({
        ...refused,
        message: 'host_user_id is not someone this caller may act for.',
      });
      expect(await scheduleErrorOf(moveTo('70000000-0000-4000-8000-0000000000ff', s.as.ada))).toEqual({
        ...refused,
        message: 'host_user_id is not someone this caller may act for.',
      });
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.hana, version: 1 });
      expect(await hostsOf()).toEqual(MON_WED_DATES.map((d) => ({ start_at: at(d), host_user_id: USER.hana })));
    });

    it('a new host whose only calendar is an ics feed stops with no_writable_calendar; nothing moves', async () => {
      const readableFeeds = testDeps(s.store, s.clock, { calendars: createCalendarReader(async () => []) });

      const changed = await moveTo(USER.rick, s.as.ada, readableFeeds);

      expect(changed.outcome.data).toEqual({ moved: 0, unchanged: 0, stopped_by: 'no_writable_calendar', superseded: false });
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.hana, status: 'active', version: 2 });
      expect(await hostsOf()).toEqual(MON_WED_DATES.map((d) => ({ start_at: at(d), host_user_id: USER.hana })));
    });

    it('a new host with one writable calendar among read-only ones takes the moves', async () => {
      // As if the workspace gave pia an ics feed beside her static calendar, which takes bookings.
      const pia = await s.store.db.selectFrom('users').select('calendars_json').where('id', '=', USER.pia).executeTakeFirstOrThrow();
      const calendars = [...JSON.parse(pia.calendars_json), { kind: 'ics', url: 'http://127.0.0.1:9/pia.ics', writable: false }];
      await s.store.db
        .updateTable('users')
        .set({ calendars_json: JSON.stringify(calendars) })
        .where('id', '=', USER.pia)
        .execute();
      const readableFeeds = testDeps(s.store, s.clock, { calendars: createCalendarReader(async () => []) });

      const changed = await moveTo(USER.pia, s.as.ada, readableFeeds);

      expect(changed.outcome.data).toEqual({ moved: 3, unchanged: 0, stopped_by: 'slot_unavailable', superseded: false });
    });

    it('a repeat to a host whose calendar cannot be read, with every occurrence already there, reads nothing and finishes', async () => {
      // rick's series, created while his feed could be read; his feed takes no bookings, but nothing needs to move.
      await resetSeriesScenario(s);
      const readableFeeds = testDeps(s.store, s.clock, { calendars: createCalendarReader(async () => []) });
      const body = weeklyBody({ host_user_id: USER.rick, event_type_id: SERIES_ET.rickWeekly });
      uid = ((await createSeries(readableFeeds, s.as.ada, body)).outcome.data as CreatedSeries).series.uid;

      const again = await moveTo(USER.rick, s.as.ada);

      expect(again.outcome.data).toEqual({ moved: 0, unchanged: 6, stopped_by: null, superseded: false });
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.rick, version: 2 });
    });

    it('a new host busy in a static calendar stops with slot_unavailable at that occurrence', async () => {
      // pia's static calendar is busy on Wednesday 03-11 09:00-12:00 and accepts writes.
      const changed = await moveTo(USER.pia, s.as.ada);

      expect(changed.outcome.data).toEqual({ moved: 3, unchanged: 0, stopped_by: 'slot_unavailable', superseded: false });
      expect(await bookingNow(s, occurrence(0).uid)).toMatchObject({
        host: HOST_OF.pia,
        title: 'Weekly between Pia Busy and Bob Invitee',
        calendar_sync_status: 'synced',
      });
      expect(await hostsOf()).toEqual(MON_WED_DATES.map((d, i) => ({ start_at: at(d), host_user_id: i < 3 ? USER.pia : USER.hana })));
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.hana, version: 2 });
    });

    it('a move holds the new host to neither the minimum notice nor the future limit: pia’s busy time past the limit still stops it', async () => {
      // As if the workspace now gave hana's weekly type 3 days of notice and a 5-day limit (7 March 08:00): the first two
      // occurrences are inside the notice, the rest past the limit. A move is not a new booking; pia's calendar is read for all.
      await s.store.db
        .updateTable('event_types')
        .set({ minimum_notice_minutes: 3 * 24 * 60, future_limit_days: 5 })
        .where('id', '=', SERIES_ET.weekly)
        .execute();

      const changed = await moveTo(USER.pia, s.as.ada);

      expect(changed.outcome.data).toEqual({ moved: 3, unchanged: 0, stopped_by: 'slot_unavailable', superseded: false });
      expect(await hostsOf()).toEqual(MON_WED_DATES.map((d, i) => ({ start_at: at(d), host_user_id: i < 3 ? USER.pia : USER.hana })));
    });

    it('an occurrence booked after the new host’s calendar was read is judged by a new read: pia’s busy time stops the move', async () => {
      const bookTheEleventh = await owingTheEleventh();
      // While the host change reads pia's calendar across 03-02 to 03-09, the time is freed and a resume books 03-11.
      let resumed = false;
      const resumingWhileRead: CalendarReader = {
        async busy(calendars, range, zone) {
          if (!resumed) {
            resumed = true;
            await bookTheEleventh();
          }
          return s.deps.calendars.busy(calendars, range, zone);
        },
      };

      const changed = await moveTo(USER.pia, s.as.ada, testDeps(s.store, s.clock, { calendars: resumingWhileRead }));

      expect(resumed).toBe(true);
      expect(changed.outcome.data).toEqual({ moved: 3, unchanged: 0, stopped_by: 'slot_unavailable', superseded: false });
      expect((await hostsOf()).filter((o) => o.start_at === at('2026-03-11'))).toEqual([
        { start_at: at('2026-03-11'), host_user_id: USER.hana },
        { start_at: at('2026-03-11'), host_user_id: USER.hana },
      ]);
    });

    it('a new host without a writable calendar stops with no_writable_calendar without a second read, though occurrences were booked since the first', async () => {
      // 03-11 is booked while the host change reads rick's feed, which cannot be read after that.
      const bookTheEleventh = await owingTheEleventh();
      let reads = 0;
      const readableOnce: CalendarReader = {
        async busy() {
          if (++reads > 1) throw new CalendarUnreadable('rick.ics is down');
          await bookTheEleventh();
          return [];
        },
      };

      const changed = await moveTo(USER.rick, s.as.ada, testDeps(s.store, s.clock, { calendars: readableOnce }));

      expect(changed.outcome.data).toEqual({ moved: 0, unchanged: 0, stopped_by: 'no_writable_calendar', superseded: false });
      expect(reads).toBe(1);
    });

    it('a new host whose calendar cannot be read is 503 availability_unavailable before anything is written', async () => {
      expect(await scheduleErrorOf(moveTo(USER.rick, s.as.ada))).toEqual({
        code: 'availability_unavailable',
        message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
        details: {},
        retryAfterSeconds: 30,
      });
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.hana, version: 1 });
    });

    it('a new host busy at the second occurrence stops with slot_unavailable after one move; a repeat once free finishes', async () => {
      await resetSeriesScenario(s, { bookings: [ivanBooking(IVAN_BUSY, '2026-03-04T10:00:00Z')] });
      created = await seriesCreated(s);
      uid = created.series.uid;

      const stopped = await moveTo(USER.ivan);

      expect(stopped.outcome.data).toEqual({ moved: 1, unchanged: 0, stopped_by: 'slot_unavailable', superseded: false });
      expect(await hostsOf()).toEqual(MON_WED_DATES.map((d, i) => ({ start_at: at(d), host_user_id: i === 0 ? USER.ivan : USER.hana })));
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.hana, status: 'active', version: 2 });

      await cancelBooking(s.deps, s.as.ivan, IVAN_BUSY, {}, 'free-ivan');
      const finished = await moveTo(USER.ivan);

      expect(finished.outcome.data).toEqual({ moved: 5, unchanged: 1, stopped_by: null, superseded: false });
      expect(await hostsOf()).toEqual(MON_WED_DATES.map((d) => ({ start_at: at(d), host_user_id: USER.ivan })));
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.ivan, status: 'active', version: 3 });
    });

    it('a host change keeps a paused series paused, and its later replacements are booked on the new host', async () => {
      await pauseSeries(s.deps, s.as.hana, uid);

      const changed = await moveTo(USER.ivan);

      expect(changed.outcome.data).toEqual({ moved: 0, unchanged: 0, stopped_by: null, superseded: false });
      expect(await seriesNow(s, uid)).toMatchObject({ host: HOST_OF.ivan, status: 'paused', version: 3 });
      expect((await resumeSeries(s.deps, s.as.mona, uid)).outcome.data).toEqual({ created: 6, skipped: [], owed: 0, superseded: false });
      const live = (await occurrenceRowsOf(s.store, uid)).filter((o) => o.status === 'confirmed');
      expect(live.map((o) => o.host_user_id)).toEqual(MON_WED_DATES.map(() => USER.ivan));
    });

    it.each([
      [{}, 'host_user_id: is required'],
      [{ host_user_id: 'not-a-uuid' }, 'host_user_id: must be a UUID'],
      [{ host_user_id: 7 }, 'host_user_id: must be a string, not 7'],
      // No body at all reads as an empty one.
      [undefined, 'host_user_id: is required'],
    ])('a missing or malformed host_user_id (%j) is 400 validation_error', async (body, message) => {
      expect(await scheduleErrorOf(changeSeriesHost(s.deps, s.as.mona, uid, body))).toEqual({
        ...seen('validation_error', { fields: ['host_user_id'] }),
        message,
      });
      expect((await seriesNow(s, uid)).version).toBe(1);
    });

    it('an Idempotency-Key on host change is honoured: the same key replays without a second version bump', async () => {
      const first = await moveTo(USER.ivan, s.as.mona, s.deps, 'host-key');
      const replay = await moveTo(USER.ivan, s.as.mona, s.deps, 'host-key');

      expect(replay).toMatchObject({ replayed: true, outcome: first.outcome });
      expect(first.outcome.data).toEqual({ moved: 6, unchanged: 0, stopped_by: null, superseded: false });
      expect((await seriesNow(s, uid)).version).toBe(2);
    });
  });
  describe('every series route', () => {
    let ivanSeries: string;
    beforeEach(async () => {
      await resetSeriesScenario(s);
      created = await seriesCreated(s);
      uid = created.series.uid;
      ivanSeries = (
        await seriesCreated(
          s,
          weeklyBody({ host_user_id: USER.ivan, event_type_id: SERIES_ET.ivanWeekly, attendee: { email: 'eve@example.com' } }),
          s.as.ivan,
        )
      ).series.uid;
    });

    /** Every route that names a series, called with valid input otherwise. */
    const routes = (principal: Principal, target: string) => ({
      get: () => getSeries(s.deps, principal, target),
      pause: () => pauseSeries(s.deps, principal, target),
      resume: () => resumeSeries(s.deps, principal, target),
      end: () => endSeries(s.deps, principal, target),
      host: () => changeSeriesHost(s.deps, principal, target, { host_user_id: USER.hana }),
      patch: () => updateSeries(s.deps, principal, target, { time: '11:00' }, { ifMatch: '*' }),
    });

    it.each(['get', 'pause', 'resume', 'end', 'host', 'patch'] as const)(
      '%s answers 404 series_not_found alike for a malformed, an unknown and an invisible uid',
      async (route) => {
        for (const target of ['not-a-uuid', '70000000-0000-4000-8000-0000000000ff', ivanSeries]) {
          expect(await scheduleErrorOf(routes(s.as.hana, target)[route]())).toEqual({
            ...seen('series_not_found', { uid: target }),
            message: 'No series with this uid.',
          });
        }
        expect(await seriesNow(s, ivanSeries)).toMatchObject({ status: 'active', version: 1 });
      },
    );

    it('404 comes before the action’s own checks: If-Match, the new host, a location_url the series cannot gain', async () => {
      const notFound = seen('series_not_found', { uid: ivanSeries });

      expect(await scheduleErrorOf(resumeSeries(s.deps, s.as.hana, ivanSeries, { ifMatch: '"9"' }))).toEqual({
        ...notFound,
        message: 'No series with this uid.',
      });
      expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, ivanSeries, { time: '11:00' }, { ifMatch: '"9"' }))).toEqual({
        ...notFound,
        message: 'No series with this uid.',
      });
      expect(
        await scheduleErrorOf(updateSeries(s.deps, s.as.hana, ivanSeries, { location_url: 'https://meet.example/x' }, { ifMatch: '"1"' })),
      ).toEqual({ ...notFound, message: 'No series with this uid.' });
      expect(await scheduleErrorOf(changeSeriesHost(s.deps, s.as.hana, ivanSeries, { host_user_id: USER.rick }))).toEqual({
        ...notFound,
        message: 'No series with this uid.',
      });
    });

    it.each(['pause', 'resume', 'end', 'host', 'patch'] as const)(
      '%s with a token lacking series:write is 403 insufficient_scope and changes nothing',
      async (route) => {
        expect(await scheduleErrorOf(routes(s.as.hanaRead, uid)[route]())).toEqual({
          ...seen('insufficient_scope', { required_scope: 'series:write' }),
          message: 'This token lacks the scope series:write.',
        });
        expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 1 });
      },
    );

    it('create with a token lacking series:write is 403 insufficient_scope', async () => {
      expect(await scheduleErrorOf(createSeries(s.deps, s.as.hanaRead, weeklyBody()))).toEqual({
        ...seen('insufficient_scope', { required_scope: 'series:write' }),
        message: 'This token lacks the scope series:write.',
      });
    });
  });
});
