import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { moveBooking, prepareMove } from '../src/bookings/reschedule-booking.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { createBooking, getBooking, outboxOf, rescheduleBooking } from './support/booking-calls.js';
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

const uid = (n: number) => `72000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/** Monday 14:00–14:30, booked from Berlin. */
const B1: ImportedBooking = { uid: uid(1), host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z', timezone: 'Europe/Berlin' };
/** Tuesday 10:00–10:30. */
const B2: ImportedBooking = { uid: uid(2), host: 'hana', slug: 'meet', start: '2026-03-03T10:00:00Z' };
/** Monday 15:00–16:00, an hour long. */
const B_LONG: ImportedBooking = { uid: uid(3), host: 'hana', slug: 'long', start: '2026-03-02T15:00:00Z' };
const B_PAST: ImportedBooking = { uid: uid(4), host: 'hana', slug: 'meet', start: '2026-03-02T08:00:00Z' };
const B_CANCELED: ImportedBooking = { uid: uid(5), host: 'hana', slug: 'meet', start: '2026-03-03T11:00:00Z', status: 'canceled' };
const B_FIXED: ImportedBooking = { uid: uid(6), host: 'hana', slug: 'fixed', start: '2026-03-03T13:00:00Z' };
const B_IVAN: ImportedBooking = { uid: uid(7), host: 'ivan', slug: 'long', start: '2026-03-02T10:00:00Z' };
const ALL = [B1, B2, B_LONG, B_PAST, B_CANCELED, B_FIXED, B_IVAN];

const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });

describe.each(storeFixtures())('POST /v1/bookings/:uid/reschedule on $name', (fixture) => {
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
    await resetBookingWorkspace({ store, clock }, ALL);
    clock.set(T1);
  });
  afterAll(() => fixture.cleanup());

  const move = (booking: string, body: unknown, key = 'key-move') => rescheduleBooking(deps, hana, booking, body, key);
  const refusal = (booking: string, body: unknown) => scheduleErrorOf(move(booking, body));
  const moved = async (booking: string, body: unknown) => (await move(booking, body)).outcome.data as Record<string, unknown>;
  const B1_MOVED = importedBookingView(B1, {
    start_at: '2026-03-04T09:30:00.000Z',
    end_at: '2026-03-04T10:00:00.000Z',
    version: 2,
    updated_at: T1,
  });

  describe('a successful reschedule', () => {
    it('moves the booking in place: same uid, new start and end, version bumped, timezone kept', async () => {
      expect(await move(B1.uid, { start: '2026-03-04T09:30:00Z', reason: 'Clash' })).toEqual({
        outcome: { status: 200, data: B1_MOVED, version: 2 },
        requestId: 'req-key-move',
        replayed: false,
      });
      expect(await getBooking(deps, hana, B1.uid)).toEqual({ status: 200, data: B1_MOVED, version: 2 });
    });

    it('records one booking.rescheduled event with the previous times and the reason', async () => {
      await move(B1.uid, { start: '2026-03-04T09:30:00Z', reason: 'Clash' });
      expect(await outboxOf(store)).toEqual([
        {
          event_type: 'booking.rescheduled',
          subject_uid: B1.uid,
          created_at: T1,
          dispatched_at: null,
          payload: {
            ...B1_MOVED,
            previous_start_at: '2026-03-02T14:00:00.000Z',
            previous_end_at: '2026-03-02T14:30:00.000Z',
            reason: 'Clash',
          },
        },
      ]);
    });

    it('takes a timezone given with the move', async () => {
      const booking = await moved(B1.uid, { start: '2026-03-04T09:30:00Z', timezone: 'Asia/Tokyo' });
      expect(booking).toEqual({ ...B1_MOVED, timezone: 'Asia/Tokyo' });
    });

    it("keeps the booking's duration when the event type's duration has since changed", async () => {
      // Meetings are now an hour long; B1 keeps its 30 minutes, so 16:30 still fits before 17:00.
      await loadBookingWorkspace({ store, clock }, ALL, { meet: { duration_minutes: 60 } });
      const booking = await moved(B1.uid, { start: '2026-03-02T16:30:00Z' });
      expect([booking.start_at, booking.end_at]).toEqual(['2026-03-02T16:30:00.000Z', '2026-03-02T17:00:00.000Z']);
    });

    it('may move into its own old time range: its own booking does not block it', async () => {
      const booking = await moved(B_LONG.uid, { start: '2026-03-02T15:30:00Z' });
      expect([booking.start_at, booking.end_at, booking.version]).toEqual(['2026-03-02T15:30:00.000Z', '2026-03-02T16:30:00.000Z', 2]);
    });

    it('frees the old slot for a new booking', async () => {
      await move(B1.uid, { start: '2026-03-04T09:30:00Z' });
      const { outcome } = await createBooking(deps, hana, {
        event_type_id: ET.meet,
        start: B1.start,
        attendee: { email: 'eve@example.com' },
      });
      expect((outcome.data as { start_at: string }).start_at).toBe('2026-03-02T14:00:00.000Z');
    });

    it('replays the same key and body without moving again', async () => {
      const first = await move(B1.uid, { start: '2026-03-04T09:30:00Z' });
      clock.set(T2);
      const again = await move(B1.uid, { start: '2026-03-04T09:30:00Z' });
      expect(again).toEqual({ outcome: first.outcome, requestId: 'req-key-move', replayed: true });
      expect((await getBooking(deps, hana, B1.uid)).version).toBe(2);
      expect(await outboxOf(store)).toHaveLength(1);
    });

    it('replays the first answer even after the booking was moved again with another key', async () => {
      const first = await move(B1.uid, { start: '2026-03-04T09:30:00Z' }, 'key-a');
      await move(B1.uid, { start: '2026-03-04T10:30:00Z' }, 'key-b');
      const again = await move(B1.uid, { start: '2026-03-04T09:30:00Z' }, 'key-a');
      expect({ replayed: again.replayed, outcome: again.outcome }).toEqual({ replayed: true, outcome: first.outcome });
      expect(await getBooking(deps, hana, B1.uid)).toEqual({
        status: 200,
        data: { ...B1_MOVED, start_at: '2026-03-04T10:30:00.000Z', end_at: '2026-03-04T11:00:00.000Z', version: 3 },
        version: 3,
      });
    });
  });

  it('refuses the move as slot_busy when a booking takes the new time between its checks and its write', async () => {
    // The steps of the operation (booking-operations.ts), with a create in between: only the check under the host's lock sees it.
    const writeDeps = { ...deps, db: store.db, dialect: store.dialect };
    const to = { start: '2026-03-04T09:30:00Z' };
    const prepared = await prepareMove(writeDeps, hana, B1.uid, to);
    await createBooking(deps, hana, { event_type_id: ET.meet, start: to.start, attendee: { email: 'eve@example.com' } }, 'key-take');
    expect(await scheduleErrorOf(store.db.transaction().execute((trx) => moveBooking(trx, writeDeps, hana, prepared, to)))).toEqual({
      ...error('slot_unavailable', { reason: 'slot_busy' }),
      message: 'The host is not free at this time.',
    });
    expect((await getBooking(deps, hana, B1.uid)).data).toMatchObject({ start_at: '2026-03-02T14:00:00.000Z', version: 1 });
  });

  describe('refusals change nothing', () => {
    const NOT_FREE = 'The host is not free at this time.';
    it.each([
      [
        'a canceled booking',
        B_CANCELED,
        '2026-03-04T09:30:00Z',
        error('booking_already_cancelled'),
        'Only a confirmed booking can be rescheduled.',
      ],
      [
        'a booking that has started',
        B_PAST,
        '2026-03-04T09:30:00Z',
        error('booking_in_past', { start_at: '2026-03-02T08:00:00.000Z' }),
        'The booking has already started or finished.',
      ],
      [
        'an event type that disallows rescheduling',
        B_FIXED,
        '2026-03-04T09:30:00Z',
        error('reschedule_not_allowed'),
        'This event type does not allow rescheduling.',
      ],
      ['a new start in the past', B1, '2026-03-02T08:30:00Z', error('slot_in_past'), 'The new start is in the past.'],
      // Every slot_unavailable says the same; its reason is in the details.
      ['a slot another booking holds', B1, '2026-03-03T10:00:00Z', error('slot_unavailable', { reason: 'slot_busy' }), NOT_FREE],
      [
        'a slot overlapping part of another booking',
        B1,
        '2026-03-02T15:30:00Z',
        error('slot_unavailable', { reason: 'slot_busy' }),
        NOT_FREE,
      ],
      ['a start off the grid', B1, '2026-03-04T09:40:00Z', error('slot_unavailable', { reason: 'slot_busy' }), NOT_FREE],
      ['a start outside working hours', B1, '2026-03-04T12:00:00Z', error('slot_unavailable', { reason: 'slot_busy' }), NOT_FREE],
      [
        'a start within the minimum notice',
        B1,
        '2026-03-02T09:30:00Z',
        error('slot_unavailable', { reason: 'outside_minimum_notice' }),
        NOT_FREE,
      ],
      [
        'a start beyond the future limit',
        B1,
        '2026-03-17T09:30:00Z',
        error('slot_unavailable', { reason: 'outside_future_limit' }),
        NOT_FREE,
      ],
    ])('refuses %s', async (_, booking, start, expected, message) => {
      expect(await refusal(booking.uid, { start })).toEqual({ ...expected, message });
      expect(await getBooking(deps, hana, booking.uid)).toEqual({ status: 200, data: importedBookingView(booking), version: 1 });
      expect(await outboxOf(store)).toEqual([]);
    });

    it('counts a booking as started when the clock is exactly at its start', async () => {
      clock.set('2026-03-02T14:00:00.000Z');
      expect(await refusal(B1.uid, { start: '2026-03-04T09:30:00Z' })).toEqual({
        ...error('booking_in_past', { start_at: '2026-03-02T14:00:00.000Z' }),
        message: 'The booking has already started or finished.',
      });
    });

    it.each([
      ['a missing start', {}, ['start'], 'start: is required'],
      [
        'a bare date as start',
        { start: '2026-03-04' },
        ['start'],
        'start: must be an ISO 8601 date-time between 1900-01-01 and 9000-12-31; start: must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00)',
      ],
      [
        'a timezone that is not IANA',
        { start: '2026-03-04T09:30:00Z', timezone: 'Nowhere/Land' },
        ['timezone'],
        'timezone: must be an IANA time zone name',
      ],
      [
        'a reason of 1025 characters',
        { start: '2026-03-04T09:30:00Z', reason: 'r'.repeat(1025) },
        ['reason'],
        'reason: must be at most 1024 characters',
      ],
    ])('refuses %s as validation_error', async (_, body, fields, message) => {
      expect(await refusal(B1.uid, body)).toEqual({ ...error('validation_error', { fields }), message });
    });

    it.each([
      ['an unknown uid', uid(255)],
      ['a uid that is not a UUID', 'b1'],
      ["a booking the caller cannot see (another user's)", B_IVAN.uid],
    ])('answers %s with booking_not_found', async (_, booking) => {
      expect(await refusal(booking, { start: '2026-03-04T09:30:00Z' })).toEqual({
        ...error('booking_not_found', { uid: booking }),
        message: 'No booking with this uid.',
      });
    });
  });
});
