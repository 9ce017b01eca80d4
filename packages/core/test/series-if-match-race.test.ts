import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CalendarReader, createCalendarReader } from '../src/availability/calendar-reader.js';
import { scheduleErrorOf } from './support/errors.js';
import { occurrenceRowsOf, owedRowsOf, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import {
  type CreatedSeries,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seen,
  seriesCreated,
  seriesNow,
  weeklyBody,
} from './support/series-scenario.js';
import { storeFixtures } from './support/stores.js';

// docs/api/series.md: an If-Match on resume or PATCH is checked when the call
// reads the series and again in its first write, so another action that
// lands while the call reads the host's calendars (before it holds the
// series) still makes it 409 version_conflict, with nothing changed by it.

const CONFLICT = 'The series changed since it was read; read it again and retry.';

describe.each(storeFixtures())('If-Match against an action landing during the calendar read, on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;
  /** Runs once, inside the next read of the host's calendars. */
  let duringRead: (() => Promise<unknown>) | undefined;

  const plain = createCalendarReader(async () => []);
  const interleaving: CalendarReader = {
    async busy(calendars, range, zone) {
      const run = duringRead;
      duringRead = undefined;
      await run?.();
      return plain.busy(calendars, range, zone);
    },
  };

  beforeAll(async () => {
    s = await openSeriesScenario(fixture, { calendars: interleaving });
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    duringRead = undefined;
    created = await seriesCreated(s, weeklyBody());
    uid = created.series.uid;
  });
  afterAll(() => fixture.cleanup());

  it('a resume whose If-Match a PATCH overtook during its read is 409 version_conflict naming the new version; nothing is booked', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    duringRead = () => updateSeries(s.deps, s.as.hana, uid, { notify_invitee: false }, { ifMatch: '"2"' });

    expect(await scheduleErrorOf(resumeSeries(s.deps, s.as.hana, uid, { ifMatch: '"2"' }))).toEqual({
      ...seen('version_conflict', { current_version: 3 }),
      message: CONFLICT,
    });

    expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 3, notify_invitee: false });
    expect(await owedRowsOf(s.store, uid)).toHaveLength(6);
    expect((await occurrenceRowsOf(s.store, uid)).filter((o) => o.status === 'confirmed')).toEqual([]);
  });

  it('a resume without If-Match resumes the series as the PATCH left it', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    duringRead = () => updateSeries(s.deps, s.as.hana, uid, { notify_invitee: false }, { ifMatch: '"2"' });

    expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ created: 6, skipped: [], owed: 0, superseded: false });
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 4 });
  });

  it('a PATCH whose If-Match a pause overtook during its read is 409 version_conflict; the pause alone held the occurrences', async () => {
    duringRead = () => pauseSeries(s.deps, s.as.hana, uid);

    expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '"1"' }))).toEqual({
      ...seen('version_conflict', { current_version: 2 }),
      message: CONFLICT,
    });

    expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 2, time: '10:00' });
    expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.canceled_by)).toEqual(Array(6).fill('pause'));
  });
});
