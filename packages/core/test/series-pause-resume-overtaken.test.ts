import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../src/ids.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { endSeries, owedRowsOf, pauseSeries, resumeSeries } from './support/series-calls.js';
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
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// docs/api/series.md "Busy and superseded", for pause and resume: one taken
// over stops before its next item, records no series event, changes no
// status in its finish, and answers superseded, wherever it was overtaken.

describe.each(storeFixtures())('pause and resume overtaken on $name', (fixture) => {
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
  });
  afterAll(() => fixture.cleanup());

  const gated = () => {
    const gate = stepGate();
    return { gate, deps: testDeps(s.store, s.clock, { steps: gate.hook }) };
  };
  const itemIndices = (gate: ReturnType<typeof stepGate>, action: 'pause' | 'resume') =>
    gate.seen.filter(stepAt(action, 'item')).map((step) => ('index' in step ? step.index : -1));
  const seriesEvents = async () =>
    (await outboxOf(s.store))
      .filter((e) => e.event_type.startsWith('series.'))
      .map((e) => e.event_type)
      .sort();

  it('a pause overtaken between items stops there and records no series.paused', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('pause', 'item', 2));
    const pausing = pauseSeries(deps, s.as.hana, uid);
    await reachStep(held, pausing);
    expect((await endSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ canceled: 4, superseded: false });
    held.release();

    expect((await pausing).outcome.data).toEqual({ held: 2, superseded: true });
    expect(itemIndices(gate, 'pause')).toEqual([0, 1, 2]);
    expect(await seriesEvents()).toEqual(['series.created', 'series.ended']);
  });

  it('a pause overtaken before its finish answers superseded and records no series.paused', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('pause', 'finish'));
    const pausing = pauseSeries(deps, s.as.hana, uid);
    await reachStep(held, pausing);
    await resumeSeries(s.deps, s.as.hana, uid);
    held.release();

    expect((await pausing).outcome.data).toEqual({ held: 6, superseded: true });
    expect(await seriesEvents()).toEqual(['series.created', 'series.resumed']);
  });

  it('a resume overtaken before its finish leaves the status to the action that took over and records no series.resumed', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('resume', 'finish'));
    const resuming = resumeSeries(deps, s.as.hana, uid);
    await reachStep(held, resuming);
    expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 6, superseded: false });
    held.release();

    expect((await resuming).outcome.data).toEqual({ created: 6, skipped: [], owed: 6, superseded: true });
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'paused', version: 4 });
    expect(await owedRowsOf(s.store, uid)).toHaveLength(6);
    expect(await seriesEvents()).toEqual(['series.created', 'series.paused', 'series.paused']);
  });

  it('a resume with a stale If-Match is version_conflict at once, even while a mail about the series is being sent', async () => {
    await pauseSeries(s.deps, s.as.hana, uid);
    await s.store.db.deleteFrom('notifications').where('kind', 'not like', 'series_%').execute();
    const gate = stepGate();
    const held = gate.holdAt(stepAt('mail', 'sending'));
    const dispatching = dispatchNotifications({
      store: s.store,
      clock: s.clock,
      ids: randomIds,
      mailer: { send: async () => undefined },
      steps: gate.hook,
    });
    await reachStep(held, dispatching);

    expect(await scheduleErrorOf(resumeSeries(s.deps, s.as.hana, uid, { ifMatch: '"1"' }))).toEqual({
      ...seen('version_conflict', { current_version: 2 }),
      message: 'The series changed since it was read; read it again and retry.',
    });
    held.release();
    expect(await dispatching).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 0 });
  });

  it('a hold that names no holder any more (let go as the claim failed) makes an action busy, not an error', async () => {
    await s.store.db
      .updateTable('series')
      .set({ hold_token: null, hold_until: '2026-03-02T08:00:10.000Z' })
      .where('uid', '=', uid)
      .execute();

    expect((await scheduleErrorOf(pauseSeries(s.deps, s.as.hana, uid))).code).toBe('series_busy');
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'active', version: 1 });
  });
});
