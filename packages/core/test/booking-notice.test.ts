import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { moveBooking, prepareMove } from '../src/bookings/reschedule-booking.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, getBooking, outboxOf, rescheduleBooking } from './support/booking-calls.js';
import { ET, type ImportedBooking, loadBookingWorkspace, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// An event type's cancel_notice_minutes and reschedule_notice_minutes
// (docs/api/event-types.md "Notice for cancel and reschedule"): who is held
// to them, where the edge is, and who may pass them.

const uid = (n: number) => `74000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/** Monday 14:00–14:30 on hana's meet, which asks for 120 minutes' notice to cancel and 60 to move. */
const B1: ImportedBooking = { uid: uid(1), host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' };
const START = '2026-03-02T14:00:00.000Z';
const NOTICES = { meet: { cancel_notice_minutes: 120, reschedule_notice_minutes: 60 } };
const CANCEL_DEADLINE = '2026-03-02T12:00:00.000Z';
const MOVE_DEADLINE = '2026-03-02T13:00:00.000Z';
const after = (iso: string) => new Date(Date.parse(iso) + 1).toISOString();
const MOVE_TO = { start: '2026-03-04T09:30:00Z' };

describe.each(storeFixtures())('cancel and reschedule notice on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  const visitor = visitorPrincipal({ kind: 'manage', bookingUid: B1.uid, eventTypeId: ET.meet });

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock });
    hana = await principalOf({ store, clock }, TOKEN.hana);
  });
  beforeEach(async () => {
    clock.set(T0);
    await resetBookingWorkspace({ store, clock }, [B1], NOTICES);
  });
  afterAll(() => fixture.cleanup());

  const unchanged = async () => {
    expect((await getBooking(deps, hana, B1.uid)).version).toBe(1);
    expect(await outboxOf(store)).toEqual([]);
  };

  describe('cancel', () => {
    it('cancels exactly at the deadline, the notice before the start', async () => {
      clock.set(CANCEL_DEADLINE);
      expect((await cancelBooking(deps, hana, B1.uid, {})).outcome.data).toMatchObject({
        status: 'canceled',
        cancelled_at: CANCEL_DEADLINE,
      });
    });

    it('refuses one millisecond later with 409 cancel_notice naming the deadline; nothing changes', async () => {
      clock.set(after(CANCEL_DEADLINE));
      expect(await scheduleErrorOf(cancelBooking(deps, hana, B1.uid, {}))).toEqual({
        code: 'cancel_notice',
        message: "This booking can no longer be canceled: its event type asks for 120 minutes' notice.",
        details: { start_at: START, notice_minutes: 120, deadline: CANCEL_DEADLINE },
        retryAfterSeconds: undefined,
      });
      await unchanged();
    });

    it('holds the visitor of the booking page to it, override_notice or not, but lets it cancel in time', async () => {
      clock.set(after(CANCEL_DEADLINE));
      for (const body of [{}, { override_notice: true }]) {
        expect((await scheduleErrorOf(cancelBooking(deps, visitor, B1.uid, body, `key-${JSON.stringify(body)}`))).code).toBe(
          'cancel_notice',
        );
      }
      await unchanged();
      clock.set(CANCEL_DEADLINE);
      expect((await cancelBooking(deps, visitor, B1.uid, {})).outcome.data).toMatchObject({ status: 'canceled' });
    });

    it('lets a token that acts for the host pass it with override_notice: true, up to the start', async () => {
      clock.set('2026-03-02T13:59:59.999Z');
      expect((await scheduleErrorOf(cancelBooking(deps, hana, B1.uid, { override_notice: false }))).code).toBe('cancel_notice');
      const { outcome } = await cancelBooking(deps, hana, B1.uid, { override_notice: true }, 'key-override');
      expect(outcome.data).toMatchObject({ status: 'canceled', version: 2 });
    });

    it('still refuses a booking that has started as booking_in_past, override or not', async () => {
      clock.set(START);
      expect((await scheduleErrorOf(cancelBooking(deps, hana, B1.uid, { override_notice: true }))).code).toBe('booking_in_past');
    });

    it('answers a canceled booking as it is, inside the notice too', async () => {
      await cancelBooking(deps, hana, B1.uid, {}, 'key-first');
      clock.set(after(CANCEL_DEADLINE));
      expect((await cancelBooking(deps, hana, B1.uid, {}, 'key-again')).outcome.data).toMatchObject({ status: 'canceled', version: 2 });
    });

    it('replays a refused key as a new attempt: the refusal is not stored', async () => {
      clock.set(after(CANCEL_DEADLINE));
      await scheduleErrorOf(cancelBooking(deps, hana, B1.uid, {}, 'key-same'));
      expect((await cancelBooking(deps, hana, B1.uid, { override_notice: true }, 'key-same')).outcome.data).toMatchObject({
        status: 'canceled',
      });
    });

    it('holds nobody to a notice of 0', async () => {
      await resetBookingWorkspace({ store, clock }, [B1], { meet: { cancel_notice_minutes: 0 } });
      clock.set('2026-03-02T13:59:59.999Z');
      expect((await cancelBooking(deps, visitor, B1.uid, {})).outcome.data).toMatchObject({ status: 'canceled' });
    });
  });

  describe('reschedule', () => {
    it('moves exactly at the deadline', async () => {
      clock.set(MOVE_DEADLINE);
      expect((await rescheduleBooking(deps, hana, B1.uid, MOVE_TO)).outcome.data).toMatchObject({ start_at: '2026-03-04T09:30:00.000Z' });
    });

    it('refuses one millisecond later with 409 reschedule_notice naming the deadline; nothing changes', async () => {
      clock.set(after(MOVE_DEADLINE));
      expect(await scheduleErrorOf(rescheduleBooking(deps, hana, B1.uid, MOVE_TO))).toEqual({
        code: 'reschedule_notice',
        message: "This booking can no longer be rescheduled: its event type asks for 60 minutes' notice.",
        details: { start_at: START, notice_minutes: 60, deadline: MOVE_DEADLINE },
        retryAfterSeconds: undefined,
      });
      await unchanged();
    });

    it('holds the visitor to it even with override_notice; a token passes it with override_notice: true', async () => {
      clock.set(after(MOVE_DEADLINE));
      const refusal = await scheduleErrorOf(rescheduleBooking(deps, visitor, B1.uid, { ...MOVE_TO, override_notice: true }));
      expect(refusal.code).toBe('reschedule_notice');
      await unchanged();
      const { outcome } = await rescheduleBooking(deps, hana, B1.uid, { ...MOVE_TO, override_notice: true });
      expect(outcome.data).toMatchObject({ start_at: '2026-03-04T09:30:00.000Z', version: 2 });
    });

    it('is checked before the new start is: inside the notice, a start in the past is reschedule_notice, not slot_in_past', async () => {
      clock.set(after(MOVE_DEADLINE));
      expect((await scheduleErrorOf(rescheduleBooking(deps, hana, B1.uid, { start: '2026-03-02T08:00:00Z' }))).code).toBe(
        'reschedule_notice',
      );
    });

    it('is checked again under the lock: a move prepared in time and written after the deadline is refused', async () => {
      // The steps of the operation (booking-operations.ts), the clock passing the deadline in between.
      const writeDeps = { ...deps, db: store.db, dialect: store.dialect };
      clock.set(MOVE_DEADLINE);
      const prepared = await prepareMove(writeDeps, hana, B1.uid, MOVE_TO);
      clock.set(after(MOVE_DEADLINE));
      const late = store.db.transaction().execute((trx) => moveBooking(trx, writeDeps, hana, prepared, MOVE_TO));
      expect((await scheduleErrorOf(late)).code).toBe('reschedule_notice');
      await unchanged();
    });

    it('is judged by the cancel notice for a cancel and the reschedule notice for a move, each on its own', async () => {
      // Between the two deadlines: too late to cancel, still in time to move.
      clock.set('2026-03-02T12:30:00.000Z');
      expect((await scheduleErrorOf(cancelBooking(deps, hana, B1.uid, {}))).code).toBe('cancel_notice');
      expect((await rescheduleBooking(deps, hana, B1.uid, MOVE_TO)).outcome.data).toMatchObject({ version: 2 });
    });
  });
});
