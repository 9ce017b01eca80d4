import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../src/operations/execute.js';
import { resumeSeriesOperation } from '../src/operations/series-operations.js';
import { HELD_REASON } from '../src/series/hold-occurrence.js';
import { countOwed, listOwed, settleOwed } from '../src/series/owed.js';
import { cancelBooking, createBooking, rescheduleBooking } from './support/booking-calls.js';
import { scheduleErrorOf } from './support/errors.js';
import { occurrenceRowsOf, owedRowsOf, pauseSeries, resumeSeries } from './support/series-calls.js';
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
import { DAY_LONG_TYPE, loadSeriesWorkspace, SERIES_ET, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

/** Wednesday 2026-03-04 12:00 UTC: the first two occurrences of the standard series are past. */
const AFTER_SECOND = '2026-03-04T12:00:00.000Z';

describe.each(storeFixtures())('series pause and resume on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
    await loadSeriesWorkspace(s, { eventTypes: [DAY_LONG_TYPE] });
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    created = await seriesCreated(s);
    uid = created.series.uid;
  });
  afterAll(() => fixture.cleanup());

  const occurrence = (i: number) => created.occurrences[i]!;
  const pause = (key?: string) => pauseSeries(s.deps, s.as.hana, uid, { key });
  const resume = (options: { key?: string; ifMatch?: string } = {}) => resumeSeries(s.deps, s.as.hana, uid, options);
  /** The confirmed occurrences: where they are, which instant they hold, and what they replaced. */
  const live = async () =>
    (await occurrenceRowsOf(s.store, uid))
      .filter((o) => o.status === 'confirmed')
      .map(({ start_at, pattern_instant, rescheduled_from_uid }) => ({ start_at, pattern_instant, rescheduled_from_uid }));
  const original = (i: number) => ({ start_at: at(MON_WED_DATES[i]!), pattern_instant: at(MON_WED_DATES[i]!), rescheduled_from_uid: null });

  describe('pause', () => {
    it('holds every future confirmed occurrence the invitee did not move, owing one entry each at its pattern instant', async () => {
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');

      const paused = await pause();

      expect(paused.outcome).toEqual({ status: 200, data: { held: 3, superseded: false } });
      expect(paused.replayed).toBe(false);
      for (const i of [2, 4, 5]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({
          status: 'canceled',
          version: 2,
          start_at: at(MON_WED_DATES[i]!),
          cancelled_at: AFTER_SECOND,
          cancellation_reason: HELD_REASON,
        });
      }
      expect(await owedRowsOf(s.store, uid)).toEqual(
        [2, 4, 5].map((i) => ({ pattern_instant: at(MON_WED_DATES[i]!), held_booking_uid: occurrence(i).uid })),
      );
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 2, updated_at: AFTER_SECOND });
    });

    it('leaves past occurrences and the one the invitee rescheduled alone', async () => {
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');

      await pause();

      for (const i of [0, 1]) {
        expect(await bookingNow(s, occurrence(i).uid)).toMatchObject({
          status: 'confirmed',
          version: 1,
          cancelled_at: null,
          cancellation_reason: null,
        });
      }
      // The reschedule made it version 2; the pause did not touch it.
      expect(await bookingNow(s, occurrence(3).uid)).toMatchObject({
        status: 'confirmed',
        version: 2,
        start_at: '2026-03-12T14:00:00.000Z',
        cancellation_reason: null,
      });
    });

    it('pausing a paused series holds nothing and still bumps the version', async () => {
      expect((await pause()).outcome.data).toEqual({ held: 6, superseded: false });

      const again = await pause();

      expect(again.outcome).toEqual({ status: 200, data: { held: 0, superseded: false } });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 3 });
      expect(await owedRowsOf(s.store, uid)).toHaveLength(6);
    });

    it('an Idempotency-Key on pause is honoured: the same key replays the answer without a second version bump', async () => {
      const first = await pause('pause-key');
      const replay = await pause('pause-key');

      expect(first).toMatchObject({ replayed: false, outcome: { status: 200, data: { held: 6, superseded: false } } });
      expect(replay).toMatchObject({ replayed: true, outcome: { status: 200, data: { held: 6, superseded: false } } });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 2 });
      // A fresh key is a new pause.
      expect((await pause('pause-key-2')).outcome.data).toEqual({ held: 0, superseded: false });
      expect((await seriesNow(s, uid)).version).toBe(3);
    });
  });

  describe('owed entries', () => {
    it('settles an owed entry once: the second settle finds it gone, which is how a replacement step books nothing for it', async () => {
      s.clock.set(AFTER_SECOND);
      await pause();
      const [first, ...rest] = await listOwed(s.store.db, uid);

      expect(await settleOwed(s.store.db, first!.id)).toBe(true);
      expect(await settleOwed(s.store.db, first!.id)).toBe(false);
      expect(await listOwed(s.store.db, uid)).toEqual(rest);
      expect(await countOwed(s.store.db, uid)).toBe(rest.length);
    });
  });

  describe('resume', () => {
    it('rule 1: after a short pause every held occurrence is replaced at its own instant, naming the held booking', async () => {
      await pause();

      const resumed = await resume();

      expect(resumed.outcome).toEqual({ status: 200, data: { created: 6, skipped: [], owed: 0, superseded: false } });
      expect(await live()).toEqual(
        MON_WED_DATES.map((d, i) => ({ start_at: at(d), pattern_instant: at(d), rescheduled_from_uid: occurrence(i).uid })),
      );
      expect(await owedRowsOf(s.store, uid)).toEqual([]);
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 3 });
    });

    it('a replacement is an ordinary confirmed booking of the series with a fresh uid', async () => {
      await pause();
      await resume();

      const replacement = (await occurrenceRowsOf(s.store, uid)).find((o) => o.rescheduled_from_uid === occurrence(0).uid)!;
      expect(replacement.uid).not.toBe(occurrence(0).uid);
      expect(await bookingNow(s, replacement.uid)).toMatchObject({
        uid: replacement.uid,
        version: 1,
        status: 'confirmed',
        title: 'Weekly between Hana Host and Bob Invitee',
        start_at: at('2026-03-02'),
        end_at: at('2026-03-02', '10:30'),
        rescheduled_from_uid: occurrence(0).uid,
        location: { type: 'conference', url: expect.stringMatching(/^https:\/\/meet\.test\//), value: null },
      });
    });

    it('rule 2: owed instants that passed during the pause go after the last instant the series holds, in owed order', async () => {
      s.clock.set(AFTER_SECOND);
      expect((await pause()).outcome.data).toEqual({ held: 4, superseded: false });
      // Tuesday 2026-03-17: the owed 03-09, 03-11 and 03-16 have passed; 03-18 has not.
      s.clock.set('2026-03-17T08:00:00.000Z');

      const resumed = await resume();

      expect(resumed.outcome.data).toEqual({ created: 4, skipped: [], owed: 0, superseded: false });
      expect(await live()).toEqual([
        original(0),
        original(1),
        // Rule 1: still in the future and free.
        { start_at: at('2026-03-18'), pattern_instant: at('2026-03-18'), rescheduled_from_uid: occurrence(5).uid },
        // Rule 2: the next Monday/Wednesday instants after 03-18, in the order the missed ones were owed.
        { start_at: at('2026-03-23'), pattern_instant: at('2026-03-23'), rescheduled_from_uid: occurrence(2).uid },
        { start_at: at('2026-03-25'), pattern_instant: at('2026-03-25'), rescheduled_from_uid: occurrence(3).uid },
        { start_at: at('2026-03-30'), pattern_instant: at('2026-03-30'), rescheduled_from_uid: occurrence(4).uid },
      ]);
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 3 });
    });

    it('a target the host is busy at is skipped and stays owed; the series stays paused; a later resume converges', async () => {
      await pause();
      const blocker = await createBooking(
        s.deps,
        s.as.hana,
        { event_type_id: SERIES_ET.weekly, start: '2026-03-11T10:00:00Z', attendee: { email: 'dan@example.com' } },
        'blocker',
      );

      const first = await resume();

      expect(first.outcome.data).toEqual({
        created: 5,
        skipped: [{ date: '2026-03-11', start_at: at('2026-03-11'), reason: 'conflict', cause: 'busy' }],
        owed: 1,
        superseded: false,
      });
      expect(await owedRowsOf(s.store, uid)).toEqual([{ pattern_instant: at('2026-03-11'), held_booking_uid: occurrence(3).uid }]);
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 3 });

      const stillBusy = await resume();
      expect(stillBusy.outcome.data).toEqual({
        created: 0,
        skipped: [{ date: '2026-03-11', start_at: at('2026-03-11'), reason: 'conflict', cause: 'busy' }],
        owed: 1,
        superseded: false,
      });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 4 });

      await cancelBooking(s.deps, s.as.hana, (blocker.outcome.data as { uid: string }).uid, {}, 'free-it');
      const last = await resume();

      expect(last.outcome.data).toEqual({ created: 1, skipped: [], owed: 0, superseded: false });
      expect(await live()).toEqual(
        MON_WED_DATES.map((d, i) => ({ start_at: at(d), pattern_instant: at(d), rescheduled_from_uid: occurrence(i).uid })),
      );
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 5 });
    });

    it('a target that would overlap a replacement the same resume booked is skipped as series_overlap and stays owed (a day-long meeting across the short DST day in Berlin)', async () => {
      // sam's day-long type on Saturdays and Sundays at 10:00 Berlin: 21, 22 and 28 March (09:00 UTC) touch but do not overlap.
      const body = weeklyBody({
        host_user_id: USER.sam,
        event_type_id: DAY_LONG_TYPE.id,
        weekdays: ['sat', 'sun'],
        timezone: 'Europe/Berlin',
        starts_on: '2026-03-21',
        count: 3,
      });
      const day = await seriesCreated(s, body, s.as.ada);
      expect((await pauseSeries(s.deps, s.as.ada, day.series.uid)).outcome.data).toEqual({ held: 3, superseded: false });
      // 21 and 22 March pass during the pause: their entries go to Sunday 29 March 10:00 CEST (08:00 UTC) and 4 April, in owed
      // order, before 28 March keeps its own instant; a day from 28 March 09:00 UTC would overlap 29 March's.
      s.clock.set('2026-03-23T08:00:00.000Z');

      const resumed = await resumeSeries(s.deps, s.as.ada, day.series.uid);

      expect(resumed.outcome.data).toEqual({
        created: 2,
        skipped: [{ date: '2026-03-28', start_at: '2026-03-28T09:00:00.000Z', reason: 'conflict', cause: 'series_overlap' }],
        owed: 1,
        superseded: false,
      });
      expect((await owedRowsOf(s.store, day.series.uid)).map((o) => o.pattern_instant)).toEqual(['2026-03-28T09:00:00.000Z']);
    });

    it('after the event type was switched off, a resume skips every target as event_type_inactive and they stay owed', async () => {
      await pause();
      await s.store.db.updateTable('event_types').set({ status: 'off' }).where('id', '=', SERIES_ET.weekly).execute();

      const resumed = await resume();

      expect(resumed.outcome.data).toEqual({
        created: 0,
        skipped: MON_WED_DATES.map((d) => ({ date: d, start_at: at(d), reason: 'conflict', cause: 'event_type_inactive' })),
        owed: 6,
        superseded: false,
      });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 3 });
    });

    it('resume on an active series with nothing owed answers 200 with nothing to do and bumps the version', async () => {
      const resumed = await resume();

      expect(resumed.outcome).toEqual({ status: 200, data: { created: 0, skipped: [], owed: 0, superseded: false } });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 2 });
      expect(await live()).toEqual(MON_WED_DATES.map((_, i) => original(i)));
    });

    it('occurrences held plus entries owed never change in number through pause and resume', async () => {
      const counts: number[] = [await heldPlusOwed(s, uid)];
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(4).uid, { start: '2026-03-17T15:00:00Z' }, 'move-4');
      counts.push(await heldPlusOwed(s, uid));
      await pause();
      counts.push(await heldPlusOwed(s, uid));
      await createBooking(
        s.deps,
        s.as.hana,
        { event_type_id: SERIES_ET.weekly, start: '2026-03-09T10:00:00Z', attendee: { email: 'dan@example.com' } },
        'blocker',
      );
      await resume();
      counts.push(await heldPlusOwed(s, uid));
      await pause();
      counts.push(await heldPlusOwed(s, uid));
      s.clock.set('2026-03-12T08:00:00.000Z');
      await resume();
      counts.push(await heldPlusOwed(s, uid));

      expect(counts).toEqual([6, 6, 6, 6, 6, 6]);
    });

    it('a replayed resume returns the stored answer without a second version bump', async () => {
      await pause();
      const first = await resume({ key: 'resume-key' });
      const replay = await resume({ key: 'resume-key' });

      expect(replay).toMatchObject({ replayed: true, outcome: first.outcome });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 3 });
    });
  });

  describe('resume If-Match', () => {
    it.each(['"2"', '2', '*'])('If-Match %s matching the current version proceeds', async (ifMatch) => {
      await pause();

      const resumed = await resume({ ifMatch });

      expect(resumed.outcome.data).toEqual({ created: 6, skipped: [], owed: 0, superseded: false });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 3 });
    });

    it('a stale If-Match is refused with 409 version_conflict naming the current version, and nothing changes', async () => {
      await pause();

      expect(await scheduleErrorOf(resume({ ifMatch: '"1"' }))).toEqual({
        ...seen('version_conflict', { current_version: 2 }),
        message: 'The series changed since it was read; read it again and retry.',
      });
      expect(await scheduleErrorOf(resume({ ifMatch: '3' }))).toEqual({
        ...seen('version_conflict', { current_version: 2 }),
        message: 'The series changed since it was read; read it again and retry.',
      });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 2 });
      expect(await owedRowsOf(s.store, uid)).toHaveLength(6);
    });

    it.each(['abc', 'W/"2"', '"2', ''])('an If-Match that does not parse as a revision (%j) is 400 invalid_if_match', async (ifMatch) => {
      await pause();

      expect(await scheduleErrorOf(resume({ ifMatch }))).toEqual({
        ...seen('invalid_if_match', { if_match: ifMatch }),
        message: 'If-Match must be a version, such as "3", 3 or *.',
      });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 2 });
    });

    it('resume without an Idempotency-Key is 400 missing_idempotency_key', async () => {
      await pause();
      const call = { params: { uid }, query: {}, body: undefined, idempotencyKey: undefined };

      expect(await scheduleErrorOf(execute(s.deps, resumeSeriesOperation, s.as.hana, call, 'req-resume'))).toEqual({
        ...seen('missing_idempotency_key'),
        message: 'This operation requires an Idempotency-Key.',
      });
      expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 2 });
    });
  });
});
