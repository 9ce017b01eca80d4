import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDED_REASON } from '../src/series/end-series.js';
import { HELD_REASON, holdOccurrence } from '../src/series/hold-occurrence.js';
import { cancelBooking, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { endSeries, notificationsOf, occurrenceRowsOf, owedRowsOf, pauseSeries, updateSeries } from './support/series-calls.js';
import {
  type CreatedSeries,
  hanaBooked,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seriesCreated,
  weeklyBody,
} from './support/series-scenario.js';
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// docs/api/series.md "Owed, held and moved": an occurrence is held (or, by an
// end, canceled) only if, read again in the step that changes it, it is still
// confirmed, has not started and was not moved by the invitee. What the
// invitee did while the action ran wins. The step hook holds the action
// between its items while the invitee acts.

/** Where the invitee moves an occurrence while an action runs. */
const MOVED_TO = '2026-03-12T14:00:00.000Z';

describe.each(storeFixtures())('which occurrences a series action holds, on $name', (fixture) => {
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

  const occurrence = (i: number) => created.occurrences[i]!;
  const gated = () => {
    const gate = stepGate();
    return { gate, deps: testDeps(s.store, s.clock, { steps: gate.hook }) };
  };
  const states = async () =>
    (await occurrenceRowsOf(s.store, uid)).map((o) => [o.uid, o.start_at, o.status, o.canceled_by, o.moved_by_invitee]);
  const owedUids = async () => (await owedRowsOf(s.store, uid)).map((o) => o.held_booking_uid);
  /** The invitee, while the action waits: cancels occurrence 3 and moves occurrence 4. */
  const inviteeActs = async () => {
    expect((await cancelBooking(s.deps, s.as.hana, occurrence(3).uid, {}, 'cancel-3')).outcome.status).toBe(200);
    expect((await rescheduleBooking(s.deps, s.as.hana, occurrence(4).uid, { start: MOVED_TO }, 'move-4')).outcome.status).toBe(200);
  };

  it('a pause holds neither what the invitee canceled or moved while it ran, nor what started meanwhile; it holds the rest', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('pause', 'item', 0));
    const pausing = pauseSeries(deps, s.as.hana, uid);
    await reachStep(held, pausing);
    await inviteeActs();
    // The first occurrence starts exactly now: it has started.
    s.clock.set(occurrence(0).start_at);
    held.release();

    expect((await pausing).outcome).toEqual({ status: 200, data: { held: 3, superseded: false } });
    expect(await owedUids()).toEqual([1, 2, 5].map((i) => occurrence(i).uid));
    expect(await states()).toEqual([
      [occurrence(0).uid, occurrence(0).start_at, 'confirmed', null, 0],
      [occurrence(1).uid, occurrence(1).start_at, 'canceled', 'pause', 0],
      [occurrence(2).uid, occurrence(2).start_at, 'canceled', 'pause', 0],
      [occurrence(3).uid, occurrence(3).start_at, 'canceled', null, 0],
      [occurrence(4).uid, MOVED_TO, 'confirmed', null, 1],
      [occurrence(5).uid, occurrence(5).start_at, 'canceled', 'pause', 0],
    ]);
  });

  it('a pause holds an occurrence that starts a millisecond after it reads it', async () => {
    s.clock.set(Date.parse(occurrence(0).start_at) - 1);
    expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 6, superseded: false });
  });

  it('a pattern PATCH holds neither what the invitee canceled or moved while it ran; their dates get no cancellation from it', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('update', 'item', 0));
    const patching = updateSeries(deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });
    await reachStep(held, patching);
    await inviteeActs();
    await s.store.db.deleteFrom('notifications').execute();
    held.release();

    expect((await patching).outcome.data).toMatchObject({ resumed: { created: 4, skipped: [], owed: 0, superseded: false } });
    const heldByPatch = (await states()).filter(([, , status, canceledBy]) => status === 'canceled' && canceledBy === 'update');
    expect(heldByPatch.map(([heldUid]) => heldUid)).toEqual([0, 1, 2, 5].map((i) => occurrence(i).uid));
    const canceledMail = (await notificationsOf(s.store)).filter((n) => n.kind === 'booking_canceled').map((n) => n.booking_uid);
    expect(canceledMail.sort()).toEqual([0, 1, 2, 5].map((i) => occurrence(i).uid).sort());
  });

  it('an end cancels neither what the invitee canceled while it ran nor what started meanwhile, and counts only what it canceled', async () => {
    const { gate, deps } = gated();
    const held = gate.holdAt(stepAt('end', 'item', 1));
    const ending = endSeries(deps, s.as.hana, uid);
    await reachStep(held, ending);
    expect((await cancelBooking(s.deps, s.as.hana, occurrence(2).uid, {}, 'cancel-2')).outcome.status).toBe(200);
    s.clock.set(occurrence(1).start_at);
    held.release();

    expect((await ending).outcome).toEqual({ status: 200, data: { canceled: 4, superseded: false } });
    const byEnd = (await occurrenceRowsOf(s.store, uid)).filter((o) => o.canceled_by === 'end').map((o) => o.uid);
    expect(byEnd).toEqual([0, 3, 4, 5].map((i) => occurrence(i).uid));
    expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.status)).toEqual([
      'canceled',
      'confirmed',
      'canceled',
      'canceled',
      'canceled',
      'canceled',
    ]);
    // Beside the invitee's own cancellation of occurrence 2 (to host and attendee), the end's four.
    const fromEnd = (await notificationsOf(s.store)).filter((n) => n.kind === 'booking_canceled' && n.booking_uid !== occurrence(2).uid);
    expect(fromEnd.map((n) => [n.recipient, n.payload.reason])).toEqual(Array(4).fill(['bob@example.com', ENDED_REASON]));
  });

  describe('holding one booking directly', () => {
    const hold = (bookingUid: string) =>
      s.store.db.transaction().execute((trx) => holdOccurrence(trx, s.deps, bookingUid, { action: 'pause' }));

    it('holds a future confirmed occurrence: canceled by the pause with the held reason, one owed entry at its instant', async () => {
      expect(await hold(occurrence(2).uid)).toBe(true);
      expect(await owedRowsOf(s.store, uid)).toEqual([{ pattern_instant: occurrence(2).start_at, held_booking_uid: occurrence(2).uid }]);
      const row = await s.store.db.selectFrom('bookings').selectAll().where('uid', '=', occurrence(2).uid).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'canceled', canceled_by: 'pause', cancellation_reason: HELD_REASON, version: 2 });
    });

    it('holds nothing of an unknown booking, an ordinary booking, or a series booking without a pattern instant', async () => {
      const ordinaryUid = await hanaBooked(s, '2026-03-05T14:00:00Z', 'ordinary');
      await s.store.db.updateTable('bookings').set({ pattern_instant: null }).where('uid', '=', occurrence(2).uid).execute();

      expect(await hold('00000000-0000-4000-8000-000000000000')).toBe(false);
      expect(await hold(ordinaryUid)).toBe(false);
      expect(await hold(occurrence(2).uid)).toBe(false);

      expect(await owedRowsOf(s.store, uid)).toEqual([]);
      const statuses = await s.store.db
        .selectFrom('bookings')
        .select(['status', 'version'])
        .where('uid', 'in', [ordinaryUid, occurrence(2).uid])
        .execute();
      expect(statuses).toEqual([
        { status: 'confirmed', version: 1 },
        { status: 'confirmed', version: 1 },
      ]);
    });
  });
});
