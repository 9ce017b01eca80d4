import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cancelBooking, outboxOf, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { occurrenceRowsOf, owedRowsOf, pauseSeries, updateSeries } from './support/series-calls.js';
import {
  at,
  type CreatedSeries,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seen,
  seriesCreated,
  seriesNow,
  weeklyBody,
} from './support/series-scenario.js';
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// docs/api/series.md "Busy and superseded", for PATCH /v1/series/:uid: its
// items (restamping the link, holding what the new pattern drops, booking the
// replacements) are one numbered run of committed steps, and an action that
// takes the series over stops it before its next item, whichever part it is in.

const OLD_LINK = 'https://meet.example/old';
const NEW_LINK = 'https://meet.example/new';

describe.each(storeFixtures())('the steps of a series PATCH on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    created = await seriesCreated(s, weeklyBody({ location_url: OLD_LINK }));
    uid = created.series.uid;
  });
  afterAll(() => fixture.cleanup());

  const occurrence = (i: number) => created.occurrences[i]!;
  const gated = () => {
    const gate = stepGate();
    return { gate, deps: testDeps(s.store, s.clock, { steps: gate.hook }) };
  };
  /** The indices of the PATCH's item steps, in the order it passed them. */
  const itemIndices = (gate: ReturnType<typeof stepGate>) =>
    gate.seen.filter(stepAt('update', 'item')).map((step) => ('index' in step ? step.index : -1));
  const links = async () =>
    (
      await s.store.db
        .selectFrom('bookings')
        .select(['uid', 'location_json', 'status'])
        .where('series_uid', '=', uid)
        .orderBy('start_at')
        .orderBy('uid')
        .execute()
    ).map((b) => [b.status, (JSON.parse(b.location_json) as { url: string }).url]);
  /** The series events recorded, sorted: all are recorded at S0, in no defined order. */
  const seriesEvents = async () =>
    (await outboxOf(s.store))
      .filter((e) => e.event_type.startsWith('series.'))
      .map((e) => e.event_type)
      .sort();

  it('numbers its items on from the restamps through the holds to the replacements', async () => {
    const { gate, deps } = gated();
    const patched = await updateSeries(deps, s.as.hana, uid, { location_url: NEW_LINK, time: '11:00' }, { ifMatch: '*' });

    expect(patched.outcome.data).toMatchObject({ resumed: { created: 6, skipped: [], owed: 0, superseded: false } });
    // Six restamps, six holds, six replacements.
    expect(itemIndices(gate)).toEqual([...Array(18).keys()]);
    expect(gate.seen.filter(stepAt('update', 'first_write'))).toHaveLength(1);
    expect(gate.seen.filter(stepAt('update', 'finish'))).toHaveLength(1);
  });

  it('overtaken while restamping: stops there, holds nothing, and answers superseded', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('update', 'item', 2));
    const patching = updateSeries(deps, s.as.hana, uid, { location_url: NEW_LINK, time: '11:00' }, { ifMatch: '*' });
    await reachStep(held, patching);
    expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 6, superseded: false });
    held.release();

    expect((await patching).outcome.data).toEqual({
      series: { ...created.series, location_url: NEW_LINK, time: '11:00', status: 'paused', version: 3 },
      resumed: { created: 0, skipped: [], owed: 6, superseded: true },
    });
    // It tried the item that found the series taken over, and no later one.
    expect(itemIndices(gate)).toEqual([0, 1, 2]);
    expect(await links()).toEqual([...Array(2).fill(['canceled', NEW_LINK]), ...Array(4).fill(['canceled', OLD_LINK])]);
    expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.canceled_by)).toEqual(Array(6).fill('pause'));
    expect(await seriesEvents()).toEqual(['series.created', 'series.paused']);
  });

  it('overtaken while holding: what it held stays owed, it books nothing, and answers superseded', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('update', 'item', 2));
    const patching = updateSeries(deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });
    await reachStep(held, patching);
    expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 4, superseded: false });
    held.release();

    expect((await patching).outcome.data).toEqual({
      series: { ...created.series, time: '11:00', status: 'paused', version: 3 },
      resumed: { created: 0, skipped: [], owed: 6, superseded: true },
    });
    expect(itemIndices(gate)).toEqual([0, 1, 2]);
    expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.canceled_by)).toEqual(['update', 'update', ...Array(4).fill('pause')]);
    expect((await owedRowsOf(s.store, uid)).map((o) => o.held_booking_uid)).toEqual(created.occurrences.map((o) => o.uid));
    expect(await seriesEvents()).toEqual(['series.created', 'series.paused']);
  });

  it('overtaken before its finish: its items stand, it records no series.updated, and answers superseded', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('update', 'finish'));
    const patching = updateSeries(deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });
    await reachStep(held, patching);
    expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 6, superseded: false });
    held.release();

    expect((await patching).outcome.data).toEqual({
      series: { ...created.series, time: '11:00', status: 'paused', version: 3 },
      resumed: { created: 6, skipped: [], owed: 6, superseded: true },
    });
    expect(await seriesEvents()).toEqual(['series.created', 'series.paused']);
  });

  it('a link-only PATCH overtaken answers with the series as it now is and no resumed part', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('update', 'item', 3));
    const patching = updateSeries(deps, s.as.hana, uid, { location_url: NEW_LINK }, { ifMatch: '*' });
    await reachStep(held, patching);
    await pauseSeries(s.deps, s.as.hana, uid);
    held.release();

    expect((await patching).outcome.data).toEqual({
      series: { ...created.series, location_url: NEW_LINK, status: 'paused', version: 3 },
      resumed: null,
    });
    expect(itemIndices(gate)).toEqual([0, 1, 2, 3]);
  });

  it('an interval change holds the weeks the new interval skips and books them on its next instants', async () => {
    const patched = await updateSeries(s.deps, s.as.hana, uid, { interval_weeks: 2 }, { ifMatch: '*' });

    expect(patched.outcome.data).toEqual({
      series: { ...created.series, interval_weeks: 2, version: 2 },
      resumed: { created: 2, skipped: [], owed: 0, superseded: false },
    });
    expect(await seriesNow(s, uid)).toMatchObject({ interval_weeks: 2 });
    const live = (await occurrenceRowsOf(s.store, uid)).filter((o) => o.status === 'confirmed');
    // Weeks of 2 and 16 March stay; the week of 9 March is skipped, its two go to the week of 30 March.
    expect(live.map((o) => [o.start_at, o.rescheduled_from_uid])).toEqual([
      [at('2026-03-02'), null],
      [at('2026-03-04'), null],
      [at('2026-03-16'), null],
      [at('2026-03-18'), null],
      [at('2026-03-30'), occurrence(2).uid],
      [at('2026-04-01'), occurrence(3).uid],
    ]);
    expect(await seriesEvents()).toEqual(['series.created', 'series.updated']);
    const updated = (await outboxOf(s.store)).find((e) => e.event_type === 'series.updated')!;
    expect(updated.payload).toEqual({ ...(await seriesNow(s, uid)), changed_fields: ['interval_weeks'] });
  });

  it('an occurrence the invitee moved gets no hold step: five holds, then five replacements', async () => {
    await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');
    const { gate, deps } = gated();

    const patched = await updateSeries(deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });

    expect(patched.outcome.data).toMatchObject({ resumed: { created: 5, skipped: [], owed: 0, superseded: false } });
    expect(itemIndices(gate)).toEqual([...Array(10).keys()]);
  });

  it('a link PATCH leaves alone an occurrence canceled while it ran', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('update', 'item', 1));
    const patching = updateSeries(deps, s.as.hana, uid, { location_url: NEW_LINK }, { ifMatch: '*' });
    await reachStep(held, patching);
    expect((await cancelBooking(s.deps, s.as.hana, occurrence(2).uid, {}, 'cancel-2')).outcome.status).toBe(200);
    held.release();

    expect((await patching).outcome.status).toBe(200);
    expect(await links()).toEqual([
      ['confirmed', NEW_LINK],
      ['confirmed', NEW_LINK],
      ['canceled', OLD_LINK],
      ...Array(3).fill(['confirmed', NEW_LINK]),
    ]);
  });

  it('a link-only PATCH of a paused series books nothing: what is owed stays owed until a resume', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);

    const patched = await updateSeries(s.deps, s.as.hana, uid, { location_url: NEW_LINK }, { ifMatch: '*' });

    expect(patched.outcome.data).toEqual({
      series: { ...created.series, location_url: NEW_LINK, status: 'paused', version: 3 },
      resumed: null,
    });
    expect(await owedRowsOf(s.store, uid)).toHaveLength(6);
    expect((await occurrenceRowsOf(s.store, uid)).filter((o) => o.status === 'confirmed')).toEqual([]);
  });

  it('a stale If-Match is refused before the body is checked against the series', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    expect(await scheduleErrorOf(updateSeries(s.deps, s.as.hana, uid, { weekdays: [] }, { ifMatch: '"1"' }))).toEqual({
      ...seen('version_conflict', { current_version: 2 }),
      message: 'The series changed since it was read; read it again and retry.',
    });
  });

  it('a monthly series, which has no weekdays, takes a time PATCH', async () => {
    await resetSeriesScenario(s);
    created = await seriesCreated(s, weeklyBody({ frequency: 'monthly_same_day', weekdays: undefined, count: 2 }));
    uid = created.series.uid;

    const patched = await updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });

    expect(patched.outcome.data).toEqual({
      series: { ...created.series, time: '11:00', version: 2 },
      resumed: { created: 2, skipped: [], owed: 0, superseded: false },
    });
  });
});
