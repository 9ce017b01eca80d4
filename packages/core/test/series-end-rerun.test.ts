import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../src/ids.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { endSeries, notificationsOf, occurrenceRowsOf } from './support/series-calls.js';
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
import { S0 } from './support/series-workspace.js';
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// docs/api/series.md "States": a series is ended by the end's first write;
// an end cut short is finished by running end again ("a re-run cancels what
// the first did not reach"). The re-run keeps the first end's ended_at, and
// only the end that finishes records series.ended and queues the notice.

/** The first end is cut short here; the re-run comes an hour later. */
const LATER = '2026-03-02T09:00:00.000Z';

describe.each(storeFixtures())('an end cut short and run again on $name', (fixture) => {
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
    await s.store.db.deleteFrom('notifications').execute();
  });
  afterAll(() => fixture.cleanup());

  it('the re-run finishes the cancellations, keeps the first ended_at, and alone records series.ended and the notice listing all', async () => {
    const gate = stepGate();
    const deps = testDeps(s.store, s.clock, { steps: gate.hook });
    const held = gate.holdAt(stepAt('end', 'item', 2));
    const ending = endSeries(deps, s.as.hana, uid);
    await reachStep(held, ending);
    s.clock.set(LATER);

    expect((await endSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ canceled: 4, superseded: false });
    held.release();
    expect((await ending).outcome.data).toEqual({ canceled: 2, superseded: true });
    // It stopped at the item that found the series taken over, trying no later one.
    expect(gate.seen.filter((step) => step.phase === 'item').map((step) => ('index' in step ? step.index : -1))).toEqual([0, 1, 2]);

    const series = await seriesNow(s, uid);
    expect(series).toMatchObject({ status: 'ended', ended_at: S0, updated_at: LATER, version: 3 });
    expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.canceled_by)).toEqual(Array(6).fill('end'));
    const ended = (await outboxOf(s.store)).filter((e) => e.event_type === 'series.ended');
    expect(ended.map((e) => e.payload)).toEqual([{ ...series, canceled: 4 }]);
    const notices = (await notificationsOf(s.store)).filter((n) => n.kind === 'series_ended');
    expect(notices.map((n) => (n.payload.occurrences as { uid: string }[]).map((o) => o.uid))).toEqual([
      created.occurrences.map((o) => o.uid),
    ]);
    // Finished: no longer mid-end, and held by no one.
    const row = await s.store.db.selectFrom('series').select(['ending', 'hold_token']).where('uid', '=', uid).executeTakeFirstOrThrow();
    expect(row).toEqual({ ending: 0, hold_token: null });
  });

  it('an end overtaken before its finish leaves the series mid-end, records nothing, and answers superseded', async () => {
    const gate = stepGate();
    const deps = testDeps(s.store, s.clock, { steps: gate.hook });
    const held = gate.holdAt(stepAt('end', 'finish'));
    const ending = endSeries(deps, s.as.hana, uid);
    await reachStep(held, ending);
    const rerun = gate.holdAt(stepAt('end', 'finish'));
    const again = endSeries(deps, s.as.hana, uid);
    await reachStep(rerun, again);
    held.release();

    expect((await ending).outcome.data).toEqual({ canceled: 6, superseded: true });
    expect((await outboxOf(s.store)).filter((e) => e.event_type === 'series.ended')).toEqual([]);
    expect(await s.store.db.selectFrom('series').select('ending').where('uid', '=', uid).executeTakeFirstOrThrow()).toEqual({ ending: 1 });

    rerun.release();
    expect((await again).outcome.data).toEqual({ canceled: 0, superseded: false });
    expect((await outboxOf(s.store)).filter((e) => e.event_type === 'series.ended').map((e) => e.payload.canceled)).toEqual([0]);
    expect(await s.store.db.selectFrom('series').select('ending').where('uid', '=', uid).executeTakeFirstOrThrow()).toEqual({ ending: 0 });
  });

  it('an end of a finished end is series_ended at once, even while its notice is being sent', async () => {
    expect((await endSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ canceled: 6, superseded: false });
    await s.store.db.deleteFrom('notifications').where('kind', '!=', 'series_ended').execute();
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

    expect(await scheduleErrorOf(endSeries(s.deps, s.as.hana, uid))).toEqual({
      ...seen('series_ended'),
      message: 'The series is ended; nothing can change it.',
    });
    held.release();
    expect(await dispatching).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 0 });
  });

  it('an end let in while another end was unfinished is series_ended if that end finished before its first write', async () => {
    const gate = stepGate();
    const deps = testDeps(s.store, s.clock, { steps: gate.hook });
    const first = gate.holdAt(stepAt('end', 'finish'));
    const ending = endSeries(deps, s.as.hana, uid);
    await reachStep(first, ending);
    const second = gate.holdAt(stepAt('end', 'first_write'));
    const again = endSeries(deps, s.as.hana, uid);
    await reachStep(second, again);
    first.release();
    expect((await ending).outcome.data).toEqual({ canceled: 6, superseded: false });
    second.release();

    expect(await scheduleErrorOf(again)).toEqual({ ...seen('series_ended'), message: 'The series is ended; nothing can change it.' });
    expect((await outboxOf(s.store)).filter((e) => e.event_type === 'series.ended')).toHaveLength(1);
    expect(await seriesNow(s, uid)).toMatchObject({ status: 'ended', version: 2 });
  });
});
