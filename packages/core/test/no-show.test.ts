import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { clearNoShowOperation, markNoShowOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, type Executed, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { getBooking, outboxOf } from './support/booking-calls.js';
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

// POST and DELETE /v1/bookings/:uid/no-show (docs/api/endpoints.md "No-shows").

const uid = (n: number) => `73000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/** Monday 14:00–14:30. */
const B1: ImportedBooking = { uid: uid(1), host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' };
const B_CANCELED: ImportedBooking = { uid: uid(2), host: 'hana', slug: 'meet', start: '2026-03-02T10:00:00Z', status: 'canceled' };
const B_IVAN: ImportedBooking = { uid: uid(3), host: 'ivan', slug: 'long', start: '2026-03-02T10:00:00Z' };
const START = '2026-03-02T14:00:00.000Z';
const DURING = '2026-03-02T14:10:00.000Z';
const LATER = '2026-03-02T15:00:00.000Z';

const error = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  code,
  message,
  details,
  retryAfterSeconds: undefined,
});

describe.each(storeFixtures())('no-shows on $name', (fixture) => {
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
    await resetBookingWorkspace({ store, clock }, [B1, B_CANCELED, B_IVAN]);
    clock.set(DURING);
  });
  afterAll(() => fixture.cleanup());

  const mark = (
    booking: string,
    body: unknown,
    key = 'key-mark',
    extra: { ifMatch?: string; principal?: Principal } = {},
  ): Promise<Executed> =>
    execute(
      deps,
      markNoShowOperation,
      extra.principal ?? hana,
      { params: { uid: booking }, query: {}, body, idempotencyKey: key, ifMatch: extra.ifMatch },
      `req-${key}`,
    );
  const clear = (booking: string, key?: string, ifMatch?: string): Promise<Executed> =>
    execute(
      deps,
      clearNoShowOperation,
      hana,
      { params: { uid: booking }, query: {}, body: undefined, idempotencyKey: key, ifMatch },
      'req-clear',
    );
  const marked = (changes: Record<string, unknown> = {}) =>
    importedBookingView(B1, { no_show_at: DURING, no_show_reason: 'Did not join', version: 2, updated_at: DURING, ...changes });

  describe('marking', () => {
    it('sets no_show_at to now and the reason, bumps the version and answers it with its ETag version', async () => {
      expect(await mark(B1.uid, { reason: 'Did not join' })).toEqual({
        outcome: { status: 200, data: marked(), version: 2 },
        requestId: 'req-key-mark',
        replayed: false,
      });
      expect(await getBooking(deps, hana, B1.uid)).toEqual({ status: 200, data: marked(), version: 2 });
    });

    it('records one booking.no_show event whose payload is the booking', async () => {
      await mark(B1.uid, { reason: 'Did not join' });
      expect(await outboxOf(store)).toEqual([
        { event_type: 'booking.no_show', subject_uid: B1.uid, created_at: DURING, dispatched_at: null, payload: marked() },
      ]);
    });

    it('takes no body at all, leaving the reason null', async () => {
      expect((await mark(B1.uid, undefined)).outcome.data).toEqual(marked({ no_show_reason: null }));
    });

    it('marks a booking exactly at its start, and one that has ended', async () => {
      clock.set(START);
      expect((await mark(B1.uid, {}, 'key-start')).outcome.data).toMatchObject({ no_show_at: START, version: 2 });
      await resetBookingWorkspace({ store, clock }, [B1]);
      clock.set(LATER);
      expect((await mark(B1.uid, {}, 'key-later')).outcome.data).toMatchObject({ no_show_at: LATER, version: 2 });
    });

    it('refuses a booking one millisecond before its start as booking_not_started, changing nothing', async () => {
      clock.set('2026-03-02T13:59:59.999Z');
      expect(await scheduleErrorOf(mark(B1.uid, {}))).toEqual(
        error('booking_not_started', 'The booking has not started yet, so nobody can have missed it.', { start_at: START }),
      );
      expect(await getBooking(deps, hana, B1.uid)).toEqual({ status: 200, data: importedBookingView(B1), version: 1 });
      expect(await outboxOf(store)).toEqual([]);
    });

    it('refuses a booking that is not confirmed (canceled, declined, pending) as booking_already_cancelled', async () => {
      expect(await scheduleErrorOf(mark(B_CANCELED.uid, {}))).toEqual(
        error('booking_already_cancelled', 'Only a confirmed booking has attendance to record.', { status: 'canceled' }),
      );
      for (const status of ['declined', 'pending'] as const) {
        await store.db.updateTable('bookings').set({ status }).where('uid', '=', B_CANCELED.uid).execute();
        expect(await scheduleErrorOf(mark(B_CANCELED.uid, {}))).toEqual(
          error('booking_already_cancelled', 'Only a confirmed booking has attendance to record.', { status }),
        );
      }
    });

    it('replays the same key and body without marking again', async () => {
      const first = await mark(B1.uid, { reason: 'Did not join' });
      clock.set(LATER);
      expect(await mark(B1.uid, { reason: 'Did not join' })).toEqual({ outcome: first.outcome, requestId: 'req-key-mark', replayed: true });
      expect(await outboxOf(store)).toHaveLength(1);
    });

    it('answers a booking marked already as it is under a new key: the first time and reason stand', async () => {
      await mark(B1.uid, { reason: 'Did not join' }, 'key-1');
      clock.set(LATER);
      expect((await mark(B1.uid, { reason: 'Another' }, 'key-2')).outcome).toEqual({ status: 200, data: marked(), version: 2 });
      expect(await outboxOf(store)).toHaveLength(1);
    });

    it('checks If-Match when sent: the current version passes, another is version_conflict', async () => {
      expect(await scheduleErrorOf(mark(B1.uid, {}, 'key-stale', { ifMatch: '"2"' }))).toEqual(
        error('version_conflict', 'The booking is at version 1.', { current_version: 1 }),
      );
      expect((await mark(B1.uid, {}, 'key-fresh', { ifMatch: '"1"' })).outcome.version).toBe(2);
    });

    it('refuses a reason of 1025 characters as validation_error and takes one of 1024', async () => {
      expect(await scheduleErrorOf(mark(B1.uid, { reason: 'r'.repeat(1025) }))).toEqual(
        error('validation_error', 'reason: must be at most 1024 characters', { fields: ['reason'] }),
      );
      expect((await mark(B1.uid, { reason: 'r'.repeat(1024) })).outcome.data).toMatchObject({ no_show_reason: 'r'.repeat(1024) });
    });

    it.each([
      ['an unknown uid', uid(255)],
      ['a uid that is not a UUID', 'b1'],
      ["a booking the caller cannot see (another host's)", B_IVAN.uid],
    ])('answers %s with 404 booking_not_found', async (_, booking) => {
      expect(await scheduleErrorOf(mark(booking, {}))).toEqual(error('booking_not_found', 'No booking with this uid.', { uid: booking }));
    });

    it("refuses the booking page's visitor, even with the manage link of this very booking", async () => {
      const visitor = visitorPrincipal({ kind: 'manage', bookingUid: B1.uid, eventTypeId: ET.meet });
      expect(await scheduleErrorOf(mark(B1.uid, {}, 'key-visitor', { principal: visitor }))).toEqual(
        error('insufficient_scope', 'This token lacks the scope bookings:update.', { required_scope: 'bookings:update' }),
      );
      expect(await outboxOf(store)).toEqual([]);
    });
  });

  describe('clearing', () => {
    it('sets both fields back to null, bumps the version and records booking.no_show_cleared', async () => {
      await mark(B1.uid, { reason: 'Did not join' });
      clock.set(LATER);
      const cleared = importedBookingView(B1, { version: 3, updated_at: LATER });
      expect((await clear(B1.uid, 'key-clear')).outcome).toEqual({ status: 200, data: cleared, version: 3 });
      expect((await outboxOf(store)).map((e) => [e.event_type, e.payload])).toEqual([
        ['booking.no_show', marked()],
        ['booking.no_show_cleared', cleared],
      ]);
    });

    it('answers a booking without a mark as it is, with or without a key, recording nothing', async () => {
      expect((await clear(B1.uid)).outcome).toEqual({ status: 200, data: importedBookingView(B1), version: 1 });
      expect((await clear(B1.uid, 'key-clear')).outcome).toEqual({ status: 200, data: importedBookingView(B1), version: 1 });
      expect(await outboxOf(store)).toEqual([]);
    });

    it('is held to the same rules: not before the start, not canceled, not unseen, If-Match when sent', async () => {
      await mark(B1.uid, {});
      expect(await scheduleErrorOf(clear(B1.uid, undefined, '"1"'))).toEqual(
        error('version_conflict', 'The booking is at version 2.', { current_version: 2 }),
      );
      expect(await scheduleErrorOf(clear(B_CANCELED.uid))).toMatchObject({ code: 'booking_already_cancelled' });
      expect(await scheduleErrorOf(clear(B_IVAN.uid))).toMatchObject({ code: 'booking_not_found' });
      clock.set('2026-03-02T13:59:59.999Z');
      expect(await scheduleErrorOf(clear(B1.uid))).toMatchObject({ code: 'booking_not_started', details: { start_at: START } });
    });
  });
});
