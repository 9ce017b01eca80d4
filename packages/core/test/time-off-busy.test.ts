import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../src/ids.js';
import type { SlotList } from '../src/slots/slot-view.js';
import type { TimeOff } from '../src/time-off/time-off-view.js';
import { createTimeOff, deleteTimeOff } from '../src/time-off/write-time-off.js';
import { scheduleErrorOf } from './support/errors.js';
import { owedRowsOf, pauseSeries, resumeSeries } from './support/series-calls.js';
import {
  at,
  type CreatedSeries,
  MON_WED_DATES,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seriesCreated,
  seriesNow,
} from './support/series-scenario.js';
import { USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';
import { ANN_EVENT_TYPE, callAs, openTimeOffScenario, resetTimeOffScenario, type TimeOffScenario } from './support/time-off-calls.js';

// docs/api/time-off.md: time off is busy time for every reader of
// availability, through the one place they read it (hostBusy): slots, the
// check, a booking, a reschedule, a series create and a series resume.

const T0 = '2026-12-01T09:00:00.000Z';
/** Thursday 10 December, 12:00-14:00 Berlin: 11:00-13:00 UTC. */
const DENTIST = { start: '2026-12-10T12:00:00+01:00', end: '2026-12-10T14:00:00+01:00' };
const ATTENDEE = { email: 'guest@example.com', name: 'Guest' };
/** Ann's 30-minute starts on 10 December, 09:00-17:00 Berlin (08:00-16:00 UTC), as UTC clock times. */
const THURSDAY = Array.from({ length: 16 }, (_, i) => `${String(8 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 === 0 ? '00' : '30'}`);

describe.each(storeFixtures())('time off as busy time on $name', (fixture) => {
  let s: TimeOffScenario;

  beforeAll(async () => {
    s = await openTimeOffScenario(fixture, T0);
  });
  afterAll(() => fixture.cleanup());
  beforeEach(() => resetTimeOffScenario(s, T0));

  const call = (name: Parameters<typeof callAs>[2], rest: Parameters<typeof callAs>[3] = {}) => callAs(s.deps, s.who.ann, name, rest);
  const addTimeOff = async (body: Record<string, unknown>) =>
    (await call('create_time_off', { params: { user_id: 'me' }, body })).outcome.data as TimeOff;
  const slotTimes = async (day: string) => {
    const query = { event_type_id: ANN_EVENT_TYPE, start: `${day}T00:00:00Z`, end: `${day}T23:59:00Z` };
    const list = (await call('list_slots', { query })).outcome.data as SlotList;
    return list.slots.map((s) => s.start.slice(11, 16));
  };
  const check = async (start: string) => (await call('check_slot', { query: { event_type_id: ANN_EVENT_TYPE, start } })).outcome.data;
  const book = (start: string) => call('create_booking', { body: { event_type_id: ANN_EVENT_TYPE, start, attendee: ATTENDEE } });

  it('leaves the slots inside the range out, and keeps those that end at its start or start at its end', async () => {
    expect(await slotTimes('2026-12-10')).toEqual(THURSDAY);
    await addTimeOff(DENTIST);
    expect(await slotTimes('2026-12-10')).toEqual(THURSDAY.filter((t) => !['11:00', '11:30', '12:00', '12:30'].includes(t)));
  });

  it('takes a whole day off in the zone of the working hours: no slot that day, the next day untouched', async () => {
    await addTimeOff({ start_date: '2026-12-10' });
    expect(await slotTimes('2026-12-10')).toEqual([]);
    expect(await slotTimes('2026-12-11')).toEqual(THURSDAY);
  });

  it('answers the check slot_busy inside the range, and available at its end', async () => {
    await addTimeOff(DENTIST);
    expect(await check('2026-12-10T12:30:00Z')).toEqual({
      available: false,
      reason: 'slot_busy',
      next_available: '2026-12-10T13:00:00.000Z',
    });
    expect(await check('2026-12-10T10:30:00Z')).toEqual({ available: true, duration_minutes: 30 });
    expect(await check('2026-12-10T13:00:00Z')).toEqual({ available: true, duration_minutes: 30 });
  });

  it('refuses a booking inside the range as slot_unavailable, and books next to it', async () => {
    await addTimeOff(DENTIST);
    expect((await scheduleErrorOf(book('2026-12-10T11:00:00Z'))).code).toBe('slot_unavailable');
    expect((await book('2026-12-10T13:00:00Z')).outcome.status).toBe(201);
  });

  it('refuses a reschedule into the range', async () => {
    const booked = (await book('2026-12-10T09:00:00Z')).outcome.data as { uid: string };
    await addTimeOff(DENTIST);
    const moved = call('reschedule_booking', { params: { uid: booked.uid }, body: { start: '2026-12-10T12:00:00Z' } });
    expect((await scheduleErrorOf(moved)).code).toBe('slot_unavailable');
  });

  it('keeps a booking made before the time off, confirmed', async () => {
    const booked = (await book('2026-12-10T11:30:00Z')).outcome.data as { uid: string };
    await addTimeOff(DENTIST);
    expect((await call('get_booking', { params: { uid: booked.uid } })).outcome.data).toMatchObject({ status: 'confirmed' });
  });

  it('frees the time again when the range is moved or removed', async () => {
    const range = await addTimeOff(DENTIST);
    await call('update_time_off', { params: { user_id: 'me', id: range.id }, ifMatch: '*', body: { end: '2026-12-10T12:00:00Z' } });
    expect(await slotTimes('2026-12-10')).toEqual(THURSDAY.filter((t) => t !== '11:00' && t !== '11:30'));
    await call('delete_time_off', { params: { user_id: 'me', id: range.id } });
    expect(await slotTimes('2026-12-10')).toEqual(THURSDAY);
  });

  it('blocks only its own user: Ben’s time off leaves Ann’s slots alone', async () => {
    await callAs(s.deps, s.who.ben, 'create_time_off', { params: { user_id: 'me' }, body: { start_date: '2026-12-10' } });
    expect(await slotTimes('2026-12-10')).toEqual(THURSDAY);
  });
});

describe.each(storeFixtures())('time off and series on $name', (fixture) => {
  let s: SeriesScenario;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    await s.store.db.deleteFrom('time_off').execute();
  });
  afterAll(() => fixture.cleanup());

  /** Hana's time off, written by the writer the API uses. */
  const hanaOff = (start: string, end: string) =>
    createTimeOff(s.store.db, { clock: s.clock, ids: randomIds, store: s.store }, { id: USER.hana, zone: 'UTC' }, { start, end });

  it('a series create skips a date inside time off with reason conflict and books the others', async () => {
    await hanaOff('2026-03-09T00:00:00Z', '2026-03-10T00:00:00Z');
    const created: CreatedSeries = await seriesCreated(s);
    expect(created.occurrences.map((o) => o.start_at)).toEqual(MON_WED_DATES.filter((d) => d !== '2026-03-09').map((d) => at(d)));
    expect(created.skipped).toEqual([{ date: '2026-03-09', start_at: at('2026-03-09'), reason: 'conflict', cause: 'busy' }]);
  });

  it('a resume leaves a date inside time off owed and the series paused; once the time off is gone, a resume books it', async () => {
    const uid = (await seriesCreated(s)).series.uid;
    await pauseSeries(s.deps, s.as.hana, uid);
    const off = await hanaOff('2026-03-11T09:00:00Z', '2026-03-11T12:00:00Z');

    const first = await resumeSeries(s.deps, s.as.hana, uid);
    expect(first.outcome.data).toEqual({
      created: 5,
      skipped: [{ date: '2026-03-11', start_at: at('2026-03-11'), reason: 'conflict', cause: 'busy' }],
      owed: 1,
      superseded: false,
    });
    expect((await owedRowsOf(s.store, uid)).map((o) => o.pattern_instant)).toEqual([at('2026-03-11')]);
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused' });

    await deleteTimeOff(s.store.db, { clock: s.clock, ids: randomIds, store: s.store }, { id: USER.hana, zone: 'UTC' }, off.id);
    const last = await resumeSeries(s.deps, s.as.hana, uid);
    expect(last.outcome.data).toEqual({ created: 1, skipped: [], owed: 0, superseded: false });
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'active' });
  });
});
