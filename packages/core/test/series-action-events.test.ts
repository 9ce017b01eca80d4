import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outboxOf, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { endSeries, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import {
  type CreatedSeries,
  hanaBooked,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seriesCreated,
  seriesNow,
  weeklyBody,
} from './support/series-scenario.js';
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// docs/webhooks.md: each series action that finishes owning its series
// records one series event, the series as it then is plus the action's
// counts. Read off the outbox.

/** Wednesday 2026-03-04 12:00 UTC: the first two occurrences of the standard series are past. */
const AFTER_SECOND = '2026-03-04T12:00:00.000Z';

describe.each(storeFixtures())('the series events of each action on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    created = await seriesCreated(s, weeklyBody());
    uid = created.series.uid;
    await s.store.db.deleteFrom('outbox').execute();
  });
  afterAll(() => fixture.cleanup());

  const occurrence = (i: number) => created.occurrences[i]!;
  /** The series events recorded since the create, each with its payload. */
  const seriesEvents = async () =>
    (await outboxOf(s.store)).filter((e) => e.event_type.startsWith('series.')).map((e) => [e.event_type, e.subject_uid, e.payload]);

  it('series.paused carries how many occurrences the pause held', async () => {
    s.clock.set(AFTER_SECOND);
    await pauseSeries(s.deps, s.as.hana, uid);
    expect(await seriesEvents()).toEqual([['series.paused', uid, { ...(await seriesNow(s, uid)), held: 4 }]]);
  });

  it('series.resumed carries how many it booked and how many are still owed', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    await s.store.db.deleteFrom('outbox').execute();
    // Hana books the first held date for someone else: that target is busy and stays owed.
    await hanaBooked(s, occurrence(0).start_at, 'busy-first');
    await s.store.db.deleteFrom('outbox').execute();

    expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toMatchObject({ created: 5, owed: 1 });
    expect(await seriesEvents()).toEqual([['series.resumed', uid, { ...(await seriesNow(s, uid)), created: 5, owed: 1 }]]);
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused' });
  });

  it('series.ended carries how many occurrences the end canceled', async () => {
    s.clock.set(AFTER_SECOND);
    await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');
    await endSeries(s.deps, s.as.hana, uid);
    expect(await seriesEvents()).toEqual([['series.ended', uid, { ...(await seriesNow(s, uid)), canceled: 4 }]]);
  });

  it('series.updated names the fields the PATCH sent, in the order the API lists them', async () => {
    await updateSeries(s.deps, s.as.hana, uid, { notify_invitee: false, time: '11:00' }, { ifMatch: '*' });
    expect(await seriesEvents()).toEqual([
      ['series.updated', uid, { ...(await seriesNow(s, uid)), changed_fields: ['time', 'notify_invitee'] }],
    ]);
  });

  it('a pause passes one item step per occurrence it may hold, none for what the invitee moved', async () => {
    s.clock.set(AFTER_SECOND);
    await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');
    const gate = stepGate();

    expect((await pauseSeries(testDeps(s.store, s.clock, { steps: gate.hook }), s.as.hana, uid)).outcome.data).toEqual({
      held: 3,
      superseded: false,
    });
    expect(gate.seen.filter(stepAt('pause', 'item')).map((step) => ('index' in step ? step.index : -1))).toEqual([0, 1, 2]);
  });

  it('a resume that leaves its series paused keeps the updated_at of its first write; one that makes it active stamps its finish', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    const busy = await hanaBooked(s, occurrence(0).start_at, 'busy-first-again');
    const resumeFinishingLater = async (later: string) => {
      const gate = stepGate();
      const held = gate.holdAt(stepAt('resume', 'finish'));
      const resuming = resumeSeries(testDeps(s.store, s.clock, { steps: gate.hook }), s.as.hana, uid);
      await reachStep(held, resuming);
      const firstWrite = (await seriesNow(s, uid)).updated_at;
      s.clock.set(later);
      held.release();
      await resuming;
      return firstWrite;
    };

    const firstWrite = await resumeFinishingLater('2026-03-02T08:30:00.000Z');
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', updated_at: firstWrite });

    await s.store.db.updateTable('bookings').set({ status: 'canceled' }).where('uid', '=', busy).execute();
    await resumeFinishingLater('2026-03-02T09:00:00.000Z');
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', updated_at: '2026-03-02T09:00:00.000Z' });
  });
});
