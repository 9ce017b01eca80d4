import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { type IdGenerator, randomIds } from '../src/ids.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { Mail } from '../src/notifications/mailer.js';
import type { SeriesStep } from '../src/series/series-steps.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { pauseSeries } from './support/series-calls.js';
import { createdSeries, resetSeriesData, seriesStateOf } from './support/series-model.js';
import { loadSeriesWorkspace, S0, SERIES_TOKEN } from './support/series-workspace.js';
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// series-hold.ts: an action that finds the series held by a mail being sent
// waits for it a moment (MAIL_WAIT_MS), trying the hold again; one that
// finds it held by another action is busy at once. Each try at the hold
// takes one new id (the hold's token), which is how these tests count them.

/** Ids that count how many were taken, and run `onTake(n)` as the n-th is. */
function countingIds(onTake: (n: number) => void = () => {}): IdGenerator & { taken: number } {
  return {
    taken: 0,
    uuid() {
      onTake(++this.taken);
      return randomIds.uuid();
    },
  };
}

describe.each(storeFixtures())('how long an action waits for the series hold, on $name', (fixture) => {
  let store: Store;
  const clock = manualClock(S0);
  let mona: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    await loadSeriesWorkspace({ store, clock });
    mona = await principalOf({ store, clock }, SERIES_TOKEN.mona);
  });
  beforeEach(async () => {
    clock.set(S0);
    await resetSeriesData(store);
  });
  afterAll(() => fixture.cleanup());

  /** A series whose confirmation is the one mail queued. */
  const seriesWithMail = async () => {
    const uid = await createdSeries(testDeps(store, clock), mona, { count: 2, notify_invitee: true });
    await store.db.deleteFrom('notifications').where('kind', 'not like', 'series_%').execute();
    return uid;
  };

  it('an action finding a mail being sent tries again, and goes through once the send is done', async () => {
    const uid = await seriesWithMail();
    const gate = stepGate();
    const sent: Mail[] = [];
    const held = gate.holdAt(stepAt('mail', 'sending'));
    const dispatching = dispatchNotifications({
      store,
      clock,
      ids: randomIds,
      mailer: { send: async (m) => void sent.push(m) },
      steps: gate.hook,
    });
    await reachStep(held, dispatching);

    // The first try finds the mail's hold; while the action waits, the send finishes, and the next try holds the series.
    const waits: SeriesStep[] = [];
    const steps = async (step: SeriesStep) => {
      if (step.phase !== 'waiting') return;
      waits.push(step);
      held.release();
      await dispatching;
    };
    expect((await pauseSeries(testDeps(store, clock, { steps }), mona, uid)).outcome).toEqual({
      status: 200,
      data: { held: 2, superseded: false },
    });

    expect(waits).toEqual([{ action: 'pause', phase: 'waiting', seriesUid: uid }]);
    expect(await dispatching).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 0 });
    expect(sent.map((m) => m.kind)).toEqual(['series_confirmation']);
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'paused', version: 2, hold_token: null });
  });

  it('an action finding a mail that is not sent in time gives up after a bounded number of tries: 409 series_busy', async () => {
    const uid = await seriesWithMail();
    const gate = stepGate();
    const held = gate.holdAt(stepAt('mail', 'sending'));
    const dispatching = dispatchNotifications({ store, clock, ids: randomIds, mailer: { send: async () => undefined }, steps: gate.hook });
    await reachStep(held, dispatching);

    const ids = countingIds();
    expect((await scheduleErrorOf(pauseSeries(testDeps(store, clock, { ids }), mona, uid))).code).toBe('series_busy');
    // One try, then one every 10 ms for 250 ms.
    expect(ids.taken).toBe(26);
    held.release();
    await dispatching;
  });

  it('an action finding another action at its first write is busy at its first try, without waiting', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 2 });
    const held = gate.holdAt(stepAt('pause', 'first_write'));
    const pausing = pauseSeries(deps, mona, uid);
    await reachStep(held, pausing);

    const ids = countingIds();
    expect((await scheduleErrorOf(pauseSeries(testDeps(store, clock, { ids, steps: gate.hook }), mona, uid))).code).toBe('series_busy');
    expect(ids.taken).toBe(1);
    // The busy one never reached its first write: only the holder's step was passed.
    expect(gate.seen.filter(stepAt('pause', 'first_write'))).toHaveLength(1);
    held.release();
    expect((await pausing).outcome.data).toEqual({ held: 2, superseded: false });
  });
});
