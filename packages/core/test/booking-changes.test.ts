import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { applyBookingChange } from '../src/bookings/apply-change.js';
import { findVisibleBooking } from '../src/bookings/find-booking.js';
import { moveBooking, prepareMove } from '../src/bookings/reschedule-booking.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { updateBookingOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, createBooking, getBooking, outboxOf, rescheduleBooking } from './support/booking-calls.js';
import {
  ET,
  type ImportedBooking,
  importedBookingView,
  loadBookingWorkspace,
  resetBookingWorkspace,
  T0,
  TOKEN,
} from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { mailRowsOf } from './support/mail-workspace.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// What a change to a booking writes beside it (docs/api/endpoints.md "The
// Booking object"): its version, its event, its mail, and what it refuses.

const T1 = '2026-03-02T09:00:00.000Z';
const B1: ImportedBooking = { uid: '73000000-0000-4000-8000-000000000001', host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' };
const B_LONG: ImportedBooking = { uid: '73000000-0000-4000-8000-000000000002', host: 'hana', slug: 'long', start: '2026-03-03T09:00:00Z' };

describe.each(storeFixtures())('booking changes on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock });
    hana = await principalOf({ store, clock }, TOKEN.hana);
  });
  beforeEach(async () => {
    clock.set(T0);
    await store.db.deleteFrom('notifications').execute();
    await resetBookingWorkspace({ store, clock }, [B1, B_LONG]);
    clock.set(T1);
  });
  afterAll(() => fixture.cleanup());

  const patch = (uid: string, body: unknown, ifMatch = '*', key = 'key-patch') =>
    execute(deps, updateBookingOperation, hana, { params: { uid }, query: {}, body, idempotencyKey: key, ifMatch }, `req-${key}`);
  const changedFields = async () =>
    (await outboxOf(store)).filter((e) => e.event_type === 'booking.updated').map((e) => e.payload.changed_fields);

  // The front ends refuse such a path parameter first; the lookup itself still answers 404, where
  // PostgreSQL would refuse a NUL in text outright: the uid is judged before any query.
  it('finds no booking for a uid holding a NUL character, as for any uid that is not a UUID', async () => {
    const uid = `${B1.uid.slice(0, 8)}\u0000`;
    expect(await scheduleErrorOf(findVisibleBooking(store.db, hana, uid))).toEqual({
      code: 'booking_not_found',
      message: 'No booking with this uid.',
      details: { uid },
      retryAfterSeconds: undefined,
    });
  });

  describe('a write from a stale read', () => {
    it('loses to the write that got there first with version_conflict, and leaves that write as it was', async () => {
      const stale = await findVisibleBooking(store.db, hana, B1.uid);
      await store.db.transaction().execute((trx) => applyBookingChange(trx, deps, stale, { title: 'First' }, 'booking.updated'));
      expect(
        await scheduleErrorOf(
          store.db.transaction().execute((trx) => applyBookingChange(trx, deps, stale, { title: 'Second' }, 'booking.updated')),
        ),
      ).toEqual({
        code: 'version_conflict',
        message: 'The booking changed while this request ran; read it and retry.',
        details: { current_version: 2 },
        retryAfterSeconds: undefined,
      });
      expect((await getBooking(deps, hana, B1.uid)).data).toMatchObject({ title: 'First', version: 2 });
      expect((await outboxOf(store)).map((e) => e.event_type)).toEqual(['booking.updated']);
    });

    it('records the booking as it now is as the event, when the change names no other payload', async () => {
      const row = await findVisibleBooking(store.db, hana, B1.uid);
      const booking = await store.db
        .transaction()
        .execute((trx) => applyBookingChange(trx, deps, row, { title: 'Renamed' }, 'booking.updated'));
      expect((await outboxOf(store)).map((e) => e.payload)).toEqual([booking]);
      expect(booking).toEqual(importedBookingView(B1, { title: 'Renamed', version: 2, updated_at: T1 }));
    });
  });

  it('a cancel tells host and attendee the reason given', async () => {
    await cancelBooking(deps, hana, B1.uid, { reason: 'Ill today' });
    expect((await mailRowsOf(store)).map((r) => [r.kind, r.recipient, r.payload.role, r.payload.reason])).toEqual([
      ['booking_canceled', 'bob@example.com', 'attendee', 'Ill today'],
      ['booking_canceled', 'hana@acme.test', 'host', 'Ill today'],
    ]);
  });

  describe('a reschedule', () => {
    it('refuses as booking_already_cancelled when a cancel lands between its checks and its write, and moves nothing', async () => {
      // The steps of the operation (booking-operations.ts), with a cancel in between: only the read under the host's lock sees it.
      const writeDeps = { ...deps, db: store.db, dialect: store.dialect };
      const to = { start: '2026-03-04T09:30:00Z' };
      const prepared = await prepareMove(writeDeps, hana, B1.uid, to);
      await cancelBooking(deps, hana, B1.uid, {});
      expect(await scheduleErrorOf(store.db.transaction().execute((trx) => moveBooking(trx, writeDeps, hana, prepared, to)))).toEqual({
        code: 'booking_already_cancelled',
        message: 'Only a confirmed booking can be rescheduled.',
        details: {},
        retryAfterSeconds: undefined,
      });
      expect((await getBooking(deps, hana, B1.uid)).data).toMatchObject({
        status: 'canceled',
        start_at: '2026-03-02T14:00:00.000Z',
        version: 2,
      });
    });

    it('moves to a start exactly at now when the event type asks no notice', async () => {
      clock.set('2026-03-02T10:00:00.000Z');
      const { outcome } = await rescheduleBooking(deps, hana, B_LONG.uid, { start: '2026-03-02T10:00:00Z' });
      expect(outcome.data).toMatchObject({ start_at: '2026-03-02T10:00:00.000Z', end_at: '2026-03-02T11:00:00.000Z', version: 2 });
    });
  });

  describe('a PATCH', () => {
    it('keeps a booking without form answers showing none ({}) when it patches its metadata', async () => {
      await patch(B1.uid, { metadata: { x: 1 } });
      const { data } = await getBooking(deps, hana, B1.uid);
      expect(data).toEqual(importedBookingView(B1, { metadata: { x: 1 }, version: 2, updated_at: T1 }));
    });

    it('names neither responses nor attendee_name in changed_fields when the patch sends them as they are', async () => {
      const body = {
        event_type_id: ET.meet,
        start: '2026-03-02T13:00:00Z',
        attendee: { email: 'pat@example.com', name: 'Pat' },
        responses: { topic: 'x' },
      };
      const uid = ((await createBooking(deps, hana, body)).outcome.data as { uid: string }).uid;
      await patch(uid, { responses: { topic: 'x' }, attendee_name: 'Pat', metadata: { y: 1 } });
      expect(await changedFields()).toEqual([['metadata']]);
    });

    it('names responses in changed_fields when it gives answers to a booking that had none', async () => {
      await patch(B1.uid, { responses: {} });
      expect(await changedFields()).toEqual([['responses']]);
    });
  });
});
