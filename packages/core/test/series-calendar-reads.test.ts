import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Interval } from '../src/availability/busy.js';
import { type CalendarReader, createCalendarReader } from '../src/availability/calendar-reader.js';
import type { SeriesStep } from '../src/series/series-steps.js';
import { scheduleErrorOf } from './support/errors.js';
import { changeSeriesHost, createSeries, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import { occurrenceAt, skippedAt } from './support/series-expect.js';
import {
  at,
  MON_WED_DATES,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seen,
  weeklyBody,
} from './support/series-scenario.js';
import { SERIES_ET, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

// What a series reads of its host's calendars (series-availability.ts), and
// when: once before its first write, across the dates it may book, never past
// the event type's future limit, and again only when the dates it is about to
// book left that read. rick's only calendar is an ics feed; here the feed is
// read from `feed`, and every read of any host's calendars is recorded.

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

describe.each(storeFixtures())('a series reads its host’s calendars on $name', (fixture) => {
  let s: SeriesScenario;
  /** Busy times of rick's feed. */
  let feed: [string, string][] = [];
  /** Every range a series read the calendars across, as [start, end]. */
  const reads: [string, string][] = [];

  const feedReader = createCalendarReader(async (_url, range) =>
    feed
      .map(([from, to]): Interval => ({ startMs: ms(from), endMs: ms(to) }))
      .filter((busy) => busy.startMs < range.endMs && range.startMs < busy.endMs),
  );
  const recording: CalendarReader = {
    busy(calendars, range, zone) {
      reads.push([iso(range.startMs), iso(range.endMs)]);
      return feedReader.busy(calendars, range, zone);
    },
  };

  beforeAll(async () => {
    s = await openSeriesScenario(fixture, { calendars: recording });
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    feed = [];
    reads.length = 0;
  });
  afterAll(() => fixture.cleanup());

  /** A series of rick's, created by the admin: his own weekly type unless `changes` name another. */
  const rickBody = (changes: Record<string, unknown> = {}) =>
    weeklyBody({ host_user_id: USER.rick, event_type_id: SERIES_ET.rickWeekly, ...changes });
  const create = (changes: Record<string, unknown> = {}) => createSeries(s.deps, s.as.ada, rickBody(changes));

  describe('a create', () => {
    it('reads once, from the first date less the event type’s reach to the last date plus it: busy time inside the buffers skips a date', async () => {
      // The buffered type: 30 minutes and 15 on each side, so a reach of an hour. One busy time ends 10 minutes
      // before the first date, another starts 10 minutes after the last one ends.
      feed = [
        ['2026-03-02T09:40:00Z', '2026-03-02T09:50:00Z'],
        ['2026-03-11T10:40:00Z', '2026-03-11T10:50:00Z'],
      ];

      const created = await create({ event_type_id: SERIES_ET.buffered, count: 4 });

      expect(created.outcome.data).toMatchObject({
        occurrences: [occurrenceAt('2026-03-04T10:00Z'), occurrenceAt('2026-03-09T10:00Z')],
        skipped: [skippedAt('2026-03-02', '2026-03-02T10:00Z', 'busy'), skippedAt('2026-03-11', '2026-03-11T10:00Z', 'busy')],
      });
      expect(reads).toEqual([[at('2026-03-02', '09:00'), at('2026-03-11', '11:00')]]);
    });

    it('stops the read at the future limit: a date past it is skipped unread (short type: 60 minutes, 14 days)', async () => {
      // 16 March 11:00 is past 16 March 08:00, 14 days after now.
      const created = await create({ event_type_id: SERIES_ET.short, weekdays: ['mon'], time: '11:00', count: 3 });

      expect(created.outcome.data).toMatchObject({
        occurrences: [occurrenceAt('2026-03-02T11:00Z', 60), occurrenceAt('2026-03-09T11:00Z', 60)],
        skipped: [skippedAt('2026-03-16', '2026-03-16T11:00Z', 'outside_future_limit')],
      });
      expect(reads).toEqual([[at('2026-03-02', '10:00'), at('2026-03-09', '12:00')]]);
    });

    it('reads a date exactly at the future limit, which busy time then skips', async () => {
      // Now 09:00, so 16 March 09:00 is exactly 14 days ahead: still bookable, so its time is read.
      s.clock.set(at('2026-03-02', '09:00'));
      feed = [['2026-03-16T09:30:00Z', '2026-03-16T09:45:00Z']];

      const created = await create({ event_type_id: SERIES_ET.short, weekdays: ['mon'], time: '09:00', count: 2 });

      expect(created.outcome.data).toMatchObject({
        occurrences: [occurrenceAt('2026-03-09T09:00Z', 60)],
        skipped: [skippedAt('2026-03-16', '2026-03-16T09:00Z', 'busy')],
      });
      expect(reads).toEqual([[at('2026-03-09', '08:00'), at('2026-03-16', '10:00')]]);
    });

    it('reads nothing when every date is past the future limit, and answers 409 no_dates_free naming each', async () => {
      const body = { event_type_id: SERIES_ET.short, weekdays: ['mon'], starts_on: '2026-03-23', count: 2 };

      expect(await scheduleErrorOf(create(body))).toEqual({
        ...seen('no_dates_free', {
          skipped: [
            skippedAt('2026-03-23', '2026-03-23T10:00Z', 'outside_future_limit'),
            skippedAt('2026-03-30', '2026-03-30T10:00Z', 'outside_future_limit'),
          ],
        }),
        message: 'The host is free on none of the pattern dates; nothing was created.',
      });
      expect(reads).toEqual([]);
    });
  });

  describe('a pattern PATCH', () => {
    it('reads once, across the targets its replacements get once the occurrences it holds have let go of their instants', async () => {
      const created = await create({ weekdays: ['mon', 'wed'], count: 6 });
      const uid = (created.outcome.data as { series: { uid: string } }).series.uid;
      reads.length = 0;

      // Tuesdays for Wednesdays: the three Wednesdays are held, and their entries go after the last Monday still held (16 March).
      const patched = await updateSeries(s.deps, s.as.ada, uid, { weekdays: ['mon', 'tue'] }, { ifMatch: '"1"' });

      expect(patched.outcome.data).toMatchObject({ resumed: { created: 3, skipped: [], owed: 0, superseded: false } });
      expect(reads).toEqual([[at('2026-03-17', '09:30'), at('2026-03-24', '10:30')]]);
    });

    it('skips a replacement whose target is busy in the host’s calendar, and keeps its entry owed', async () => {
      const created = await create({ weekdays: ['mon', 'wed'], count: 6 });
      const uid = (created.outcome.data as { series: { uid: string } }).series.uid;
      feed = [['2026-03-17T10:00:00Z', '2026-03-17T10:30:00Z']];

      const patched = await updateSeries(s.deps, s.as.ada, uid, { weekdays: ['mon', 'tue'] }, { ifMatch: '"1"' });

      expect(patched.outcome.data).toMatchObject({
        resumed: { created: 2, skipped: [skippedAt('2026-03-17', '2026-03-17T10:00Z', 'busy')], owed: 1, superseded: false },
      });
    });
  });

  describe('a host change', () => {
    it('reads the new host’s calendars once, across the occurrences it moves, when they stayed as read', async () => {
      const created = await createSeries(s.deps, s.as.hana, weeklyBody());
      const uid = (created.outcome.data as { series: { uid: string } }).series.uid;
      reads.length = 0;

      // pia's static calendar is busy on Wednesday 11 March, 09:00-12:00.
      const changed = await changeSeriesHost(s.deps, s.as.ada, uid, { host_user_id: USER.pia });

      expect(changed.outcome.data).toEqual({ moved: 3, unchanged: 0, stopped_by: 'slot_unavailable', superseded: false });
      expect(reads).toEqual([[at(MON_WED_DATES[0], '09:30'), at(MON_WED_DATES[5], '10:30')]]);
    });
  });

  describe('a resume', () => {
    const pausedSeries = async () => {
      const created = await create({ weekdays: ['mon', 'wed'], count: 6 });
      const uid = (created.outcome.data as { series: { uid: string } }).series.uid;
      expect((await pauseSeries(s.deps, s.as.ada, uid)).outcome.data).toEqual({ held: 6, superseded: false });
      reads.length = 0;
      return uid;
    };

    it('reads once when the dates it books are the ones it read', async () => {
      const uid = await pausedSeries();

      const resumed = await resumeSeries(s.deps, s.as.ada, uid);

      expect(resumed.outcome.data).toEqual({ created: 6, skipped: [], owed: 0, superseded: false });
      expect(reads).toEqual([[at(MON_WED_DATES[0], '09:30'), at(MON_WED_DATES[5], '10:30')]]);
    });

    it('skips a date busy in the host’s calendar, and keeps its entry owed', async () => {
      const uid = await pausedSeries();
      feed = [[at(MON_WED_DATES[1], '10:00'), at(MON_WED_DATES[1], '10:30')]];

      const resumed = await resumeSeries(s.deps, s.as.ada, uid);

      expect(resumed.outcome.data).toEqual({
        created: 5,
        skipped: [skippedAt(MON_WED_DATES[1], at(MON_WED_DATES[1]), 'busy')],
        owed: 1,
        superseded: false,
      });
    });

    it('reads again when the dates it books left the first read (a date passed meanwhile), and busy time there skips it', async () => {
      const uid = await pausedSeries();
      // 2 March 10:00 passes between the resume's read and its first write: its entry goes after the last date, 23 March.
      feed = [['2026-03-23T10:00:00Z', '2026-03-23T10:30:00Z']];
      const late = {
        ...s.deps,
        steps: (step: SeriesStep) => {
          if (step.action === 'resume' && step.phase === 'first_write') s.clock.set(at('2026-03-02', '11:00'));
        },
      };

      const resumed = await resumeSeries(late, s.as.ada, uid);

      expect(resumed.outcome.data).toEqual({
        created: 5,
        skipped: [skippedAt('2026-03-23', '2026-03-23T10:00Z', 'busy')],
        owed: 1,
        superseded: false,
      });
      expect(reads).toEqual([
        [at(MON_WED_DATES[0], '09:30'), at(MON_WED_DATES[5], '10:30')],
        [at(MON_WED_DATES[1], '09:30'), at('2026-03-23', '10:30')],
      ]);
    });
  });
});
