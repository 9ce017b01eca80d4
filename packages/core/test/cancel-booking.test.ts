import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { cancelBookingOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, createBooking, getBooking, outboxOf } from './support/booking-calls.js';
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
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

const T1 = '2026-03-02T09:00:00.000Z';
const T2 = '2026-03-02T10:00:00.000Z';

const B1: ImportedBooking = { uid: '71000000-0000-4000-8000-000000000001', host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' };
const B_PAST: ImportedBooking = { uid: '71000000-0000-4000-8000-000000000002', host: 'hana', slug: 'meet', start: '2026-03-02T08:00:00Z' };
const B_CANCELED: ImportedBooking = {
  uid: '71000000-0000-4000-8000-000000000003',
  host: 'hana',
  slug: 'meet',
  start: '2026-03-03T10:00:00Z',
  status: 'canceled',
};
const B_IVAN: ImportedBooking = { uid: '71000000-0000-4000-8000-000000000004', host: 'ivan', slug: 'long', start: '2026-03-02T10:00:00Z' };
const UNKNOWN = '71000000-0000-4000-8000-0000000000ff';

const notFound = (uid: string) => ({ code: 'booking_not_found', details: { uid }, retryAfterSeconds: undefined });

describe.each(storeFixtures())('POST /v1/bookings/:uid/cancel on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let admin: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock });
    hana = await principalOf({ store, clock }, TOKEN.hana);
    admin = await principalOf({ store, clock }, TOKEN.admin);
  });
  beforeEach(async () => {
    clock.set(T0);
    await resetBookingWorkspace({ store, clock }, [B1, B_PAST, B_CANCELED, B_IVAN]);
    clock.set(T1);
  });
  afterAll(() => fixture.cleanup());

  const cancel = (uid: string, body: unknown, key = 'key-cancel', principal = hana) => cancelBooking(deps, principal, uid, body, key);
  const canceledB1 = (reason: string | null) =>
    importedBookingView(B1, { status: 'canceled', cancelled_at: T1, cancellation_reason: reason, version: 2, updated_at: T1 });

  it('cancels a confirmed booking: status, cancelled_at, reason and a version bump', async () => {
    expect(await cancel(B1.uid, { reason: 'Conflict' })).toEqual({
      outcome: { status: 200, data: canceledB1('Conflict'), version: 2 },
      requestId: 'req-key-cancel',
      replayed: false,
    });
    expect(await getBooking(deps, hana, B1.uid)).toEqual({ status: 200, data: canceledB1('Conflict'), version: 2 });
  });

  it('records one booking.canceled event with the booking and the reason', async () => {
    await cancel(B1.uid, { reason: 'Conflict' });
    expect(await outboxOf(store)).toEqual([
      {
        event_type: 'booking.canceled',
        subject_uid: B1.uid,
        created_at: T1,
        dispatched_at: null,
        payload: { ...canceledB1('Conflict'), reason: 'Conflict' },
      },
    ]);
  });

  it.each([
    ['an empty body', {}],
    ['no body at all', undefined],
  ])('cancels with %s, leaving cancellation_reason null', async (_, body) => {
    const { outcome } = await cancel(B1.uid, body);
    expect(outcome.data).toEqual(canceledB1(null));
    expect((await outboxOf(store))[0]?.payload.reason).toBeNull();
  });

  it('answers a booking canceled again with its current state, unchanged and without a version bump', async () => {
    const first = await cancel(B1.uid, { reason: 'Conflict' }, 'key-1');
    clock.set(T2);
    const again = await cancel(B1.uid, { reason: 'Something else' }, 'key-2');
    expect(again.outcome).toEqual({ status: 200, data: canceledB1('Conflict'), version: 2 });
    expect(again.outcome).toEqual(first.outcome);
    expect(await outboxOf(store)).toHaveLength(1);
  });

  it('answers a booking imported as canceled with its current state, version 1', async () => {
    const { outcome } = await cancel(B_CANCELED.uid, { reason: 'again' });
    expect(outcome).toEqual({ status: 200, data: importedBookingView(B_CANCELED), version: 1 });
    expect(await outboxOf(store)).toEqual([]);
  });

  it('refuses a booking that has started as booking_in_past and changes nothing', async () => {
    expect(await scheduleErrorOf(cancel(B_PAST.uid, {}))).toEqual({
      code: 'booking_in_past',
      message: 'The booking has already started or finished.',
      details: { start_at: '2026-03-02T08:00:00.000Z' },
      retryAfterSeconds: undefined,
    });
    expect(await getBooking(deps, hana, B_PAST.uid)).toEqual({ status: 200, data: importedBookingView(B_PAST), version: 1 });
  });

  it('counts a booking as started when the clock is exactly at its start', async () => {
    clock.set('2026-03-02T14:00:00.000Z');
    expect(await scheduleErrorOf(cancel(B1.uid, {}))).toEqual({
      code: 'booking_in_past',
      message: 'The booking has already started or finished.',
      details: { start_at: '2026-03-02T14:00:00.000Z' },
      retryAfterSeconds: undefined,
    });
  });

  it('still cancels one millisecond before the start', async () => {
    clock.set('2026-03-02T13:59:59.999Z');
    const { outcome } = await cancel(B1.uid, {});
    expect((outcome.data as { cancelled_at: string }).cancelled_at).toBe('2026-03-02T13:59:59.999Z');
  });

  it('accepts a reason of 1024 characters', async () => {
    const reason = 'r'.repeat(1024);
    const { outcome } = await cancel(B1.uid, { reason });
    expect((outcome.data as { cancellation_reason: string }).cancellation_reason).toBe(reason);
  });

  it.each([
    ['a reason of 1025 characters', { reason: 'r'.repeat(1025) }, 'reason: must be at most 1024 characters'],
    ['a reason that is not a string', { reason: 42 }, 'reason: must be a string, not 42'],
  ])('refuses %s as validation_error', async (_, body, message) => {
    expect(await scheduleErrorOf(cancel(B1.uid, body))).toEqual({
      code: 'validation_error',
      message,
      details: { fields: ['reason'] },
      retryAfterSeconds: undefined,
    });
    expect((await getBooking(deps, hana, B1.uid)).version).toBe(1);
  });

  it.each([
    ['an unknown uid', UNKNOWN],
    ['a uid that is not a UUID', 'booking-1'],
    ["a booking the caller cannot see (another user's)", B_IVAN.uid],
  ])('answers %s with booking_not_found', async (_, uid) => {
    expect(await scheduleErrorOf(cancel(uid, {}))).toEqual({ ...notFound(uid), message: 'No booking with this uid.' });
  });

  it("lets an admin cancel another user's booking", async () => {
    const { outcome } = await cancel(B_IVAN.uid, {}, 'key-admin', admin);
    expect({ status: (outcome.data as { status: string }).status, version: outcome.version }).toEqual({ status: 'canceled', version: 2 });
  });

  it('frees the slot for a new booking', async () => {
    await cancel(B1.uid, {});
    const { outcome } = await createBooking(deps, hana, {
      event_type_id: ET.meet,
      start: B1.start,
      attendee: { email: 'eve@example.com' },
    });
    expect((outcome.data as { start_at: string }).start_at).toBe('2026-03-02T14:00:00.000Z');
  });

  it('replays the same key and body with the first answer', async () => {
    const first = await cancel(B1.uid, { reason: 'Conflict' });
    clock.set(T2);
    const again = await cancel(B1.uid, { reason: 'Conflict' });
    expect(again).toEqual({ outcome: first.outcome, requestId: 'req-key-cancel', replayed: true });
  });

  it('refuses a cancel without an Idempotency-Key', async () => {
    const call = { params: { uid: B1.uid }, query: {}, body: {} };
    expect(await scheduleErrorOf(execute(deps, cancelBookingOperation, hana, call, 'req-no-key'))).toEqual({
      code: 'missing_idempotency_key',
      message: 'This operation requires an Idempotency-Key.',
      details: {},
      retryAfterSeconds: undefined,
    });
  });
});
