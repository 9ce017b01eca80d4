import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { MAX_LIVE_HOLDS } from '../src/bookings/create-hold.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { bookingRowsOf, checkSlot, createBooking, listSlots, rescheduleBooking } from './support/booking-calls.js';
import { ET, HANA, loadBookingWorkspace, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { createHold, outcomeOf, releaseHold } from './support/hold-calls.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// Issue 34 part 1: a hold keeps one free start for its caller until it
// expires or is released; everyone else finds it busy, and only its holder
// can book or release it.

const TEN = '2026-03-02T10:00:00Z';
const TEN_ISO = '2026-03-02T10:00:00.000Z';
const hold = (changes: Record<string, unknown> = {}) => ({ event_type_id: ET.meet, start: TEN, ...changes });
const book = (changes: Record<string, unknown> = {}) => ({
  event_type_id: ET.meet,
  start: TEN,
  attendee: { email: 'bob@example.com' },
  ...changes,
});

interface HeldView {
  id: string;
  event_type_id: string;
  start: string;
  end: string;
  expires_at: string;
  created_at: string;
}

describe.each(storeFixtures())('holds on $name (issue 34)', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let admin: Principal;
  let keys = 0;

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
    await store.db.deleteFrom('holds').execute();
    await resetBookingWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  const held = async (principal: Principal, body = hold()) =>
    (await createHold(deps, principal, body, `hold-${++keys}`)).outcome.data as HeldView;
  const listed = async (principal: Principal) =>
    (
      (await listSlots(deps, principal, { event_type_id: ET.meet, start: '2026-03-02T09:00:00Z', end: '2026-03-02T12:00:00Z' })).outcome
        .data as { slots: { start: string }[] }
    ).slots.map((s) => s.start);
  const available = async (principal: Principal) =>
    ((await checkSlot(deps, principal, { event_type_id: ET.meet, start: TEN })).outcome.data as { available: boolean }).available;

  it('answers 201 with the hold, its location, and an expiry ttl_seconds (default 600) from now', async () => {
    const executed = await createHold(deps, hana, hold(), 'hold-a');
    const id = (executed.outcome.data as HeldView).id;
    expect(executed.outcome).toEqual({
      status: 201,
      data: {
        id,
        event_type_id: ET.meet,
        start: TEN_ISO,
        end: '2026-03-02T10:30:00.000Z',
        expires_at: '2026-03-02T08:40:00.000Z',
        created_at: T0,
      },
      location: `/v1/holds/${id}`,
    });
    expect((await held(hana, hold({ start: '2026-03-02T11:00:00Z', ttl_seconds: 30 }))).expires_at).toBe('2026-03-02T08:30:30.000Z');
    expect((await held(hana, hold({ start: '2026-03-02T11:30:00Z', ttl_seconds: 1800 }))).expires_at).toBe('2026-03-02T09:00:00.000Z');
  });

  it('refuses a ttl_seconds outside 30 to 1800, or not an integer, naming the field', async () => {
    for (const ttl of [29, 1801, 60.5, '600']) {
      expect(await scheduleErrorOf(createHold(deps, hana, hold({ ttl_seconds: ttl })))).toMatchObject({
        code: 'validation_error',
        details: { fields: ['ttl_seconds'] },
      });
    }
  });

  it('refuses a start the host is not free at, as a booking would', async () => {
    expect(await scheduleErrorOf(createHold(deps, hana, hold({ start: '2026-03-02T12:00:00Z' })))).toMatchObject({
      code: 'slot_unavailable',
      details: { reason: 'slot_busy' },
    });
    expect(await outcomeOf(createHold(deps, hana, hold({ start: '2026-03-02T08:00:00Z' })))).toBe('slot_in_past');
    await store.db.updateTable('event_types').set({ status: 'off' }).where('id', '=', ET.meet).execute();
    expect(await outcomeOf(createHold(deps, hana, hold()))).toBe('event_type_inactive');
  });

  it('makes the time busy for every other caller in slots, checks, holds and creates, and free for its holder', async () => {
    await held(hana);
    expect(await listed(hana)).toContain(TEN_ISO);
    expect(await available(hana)).toBe(true);
    expect(await listed(admin)).not.toContain(TEN_ISO);
    // The buffer-free 30-minute neighbours stay free.
    expect(await listed(admin)).toContain('2026-03-02T09:30:00.000Z');
    expect(await listed(admin)).toContain('2026-03-02T10:30:00.000Z');
    expect(await available(admin)).toBe(false);
    expect(await outcomeOf(createHold(deps, admin, hold({ start: '2026-03-02T10:15:00Z' })))).toBe('slot_unavailable');
    expect(await scheduleErrorOf(createBooking(deps, admin, book()))).toMatchObject({
      code: 'slot_unavailable',
      details: { reason: 'slot_busy' },
    });
    // A visitor of the booking page is someone else too.
    const visitor = visitorPrincipal({ kind: 'book', hostId: HANA, holder: 'form-1' });
    expect(await listed(visitor)).not.toContain(TEN_ISO);
  });

  it('frees the time at exactly its expiry, with no sweep', async () => {
    await held(hana, hold({ ttl_seconds: 60 }));
    clock.set('2026-03-02T08:30:59.999Z');
    expect(await available(admin)).toBe(false);
    clock.set('2026-03-02T08:31:00.000Z');
    expect(await available(admin)).toBe(true);
    expect(await listed(admin)).toContain(TEN_ISO);
    expect((await createBooking(deps, admin, book())).outcome.status).toBe(201);
  });

  it('frees the time at once when released, and only its holder can release it (404 otherwise)', async () => {
    const { id } = await held(hana);
    expect(await scheduleErrorOf(releaseHold(deps, admin, id))).toEqual({
      code: 'hold_not_found',
      message: 'No hold with this id.',
      details: { hold_id: id },
      retryAfterSeconds: undefined,
    });
    expect(await outcomeOf(releaseHold(deps, hana, 'not-a-uuid'))).toBe('hold_not_found');
    expect(await available(admin)).toBe(false);
    const released = await releaseHold(deps, hana, id);
    expect(released.outcome).toMatchObject({ status: 200, data: { id, start: TEN_ISO } });
    expect(await available(admin)).toBe(true);
    expect(await outcomeOf(releaseHold(deps, hana, id))).toBe('hold_not_found');
  });

  it('books the held time with hold_id, using the hold up; the same key replays the booking', async () => {
    const { id } = await held(hana);
    const first = await createBooking(deps, hana, book({ hold_id: id }), 'book-held');
    expect(first.outcome.status).toBe(201);
    expect(await store.db.selectFrom('holds').select('id').execute()).toEqual([]);
    const again = await createBooking(deps, hana, book({ hold_id: id }), 'book-held');
    expect(again.outcome.data).toEqual(first.outcome.data);
    expect((await bookingRowsOf(store)).map((r) => r.start_at)).toEqual([TEN_ISO]);
    // Used up: a second booking with it is refused, as an expired one is.
    expect(await outcomeOf(createBooking(deps, hana, book({ hold_id: id, start: TEN }), 'book-again'))).toBe('hold_not_found');
  });

  it('vouches for the host’s time as of the hold: a calendar or hours change since does not take the time back', async () => {
    const { id } = await held(hana);
    // Hana stops working at 10:00 on Mondays after the hold was made.
    await store.db
      .updateTable('users')
      .set({ schedule_json: JSON.stringify({ timezone: 'UTC', weekly: { mon: [['09:00', '10:00']] }, overrides: [] }) })
      .where('id', '=', HANA)
      .execute();
    expect(await available(hana)).toBe(false);
    expect((await createBooking(deps, hana, book({ hold_id: id }), 'vouched')).outcome.status).toBe(201);
  });

  it('still checks what a hold cannot vouch for: the event type switched off, a start in the past', async () => {
    const { id } = await held(hana);
    await store.db.updateTable('event_types').set({ status: 'off' }).where('id', '=', ET.meet).execute();
    expect(await outcomeOf(createBooking(deps, hana, book({ hold_id: id })))).toBe('event_type_inactive');
  });

  it('refuses another caller’s hold as unknown (404), and a hold of another start or event type with 409 hold_mismatch', async () => {
    const { id } = await held(hana);
    expect(await scheduleErrorOf(createBooking(deps, admin, book({ hold_id: id })))).toEqual({
      code: 'hold_not_found',
      message: 'No hold with this id.',
      details: { hold_id: id },
      retryAfterSeconds: undefined,
    });
    expect(await scheduleErrorOf(createBooking(deps, hana, book({ hold_id: id, start: '2026-03-02T11:00:00Z' })))).toEqual({
      code: 'hold_mismatch',
      message: 'The hold is for another event type or start than this booking.',
      details: { hold_id: id, event_type_id: ET.meet, start: TEN_ISO },
      retryAfterSeconds: undefined,
    });
    expect(await outcomeOf(createBooking(deps, hana, book({ hold_id: id, event_type_id: ET.long })))).toBe('hold_mismatch');
    expect(await outcomeOf(createBooking(deps, hana, book({ hold_id: '00000000-0000-4000-8000-000000000000' })))).toBe('hold_not_found');
  });

  it('refuses an expired hold with 409 hold_expired, from exactly its expiry', async () => {
    const { id } = await held(hana, hold({ ttl_seconds: 30 }));
    clock.set('2026-03-02T08:30:30.000Z');
    expect(await scheduleErrorOf(createBooking(deps, hana, book({ hold_id: id })))).toEqual({
      code: 'hold_expired',
      message: 'The hold expired; hold the time again or book without it.',
      details: { hold_id: id, expires_at: '2026-03-02T08:30:30.000Z' },
      retryAfterSeconds: undefined,
    });
  });

  it('caps a token’s live holds of one host at MAX_LIVE_HOLDS; expired ones do not count', async () => {
    const starts = Array.from({ length: MAX_LIVE_HOLDS }, (_, i) =>
      new Date(Date.parse('2026-03-03T09:00:00Z') + Math.floor(i / 6) * 86_400_000 + (i % 6) * 1_800_000).toISOString(),
    );
    for (const start of starts) await held(hana, hold({ start, ttl_seconds: 60 }));
    expect(await scheduleErrorOf(createHold(deps, hana, hold(), 'one-more'))).toEqual({
      code: 'hold_limit_reached',
      message: `At most ${MAX_LIVE_HOLDS} times of one host may be held at once; release one first.`,
      details: { max: MAX_LIVE_HOLDS },
      retryAfterSeconds: undefined,
    });
    // Another token is not held to hana's count.
    expect((await createHold(deps, admin, hold({ start: '2026-03-02T11:00:00Z' }), 'admin-one')).outcome.status).toBe(201);
    clock.set('2026-03-02T08:31:00.000Z');
    expect((await createHold(deps, hana, hold(), 'after-expiry')).outcome.status).toBe(201);
  });

  it('keeps a held time from another caller’s reschedule too', async () => {
    const { uid } = (await createBooking(deps, admin, book({ start: '2026-03-02T11:00:00Z' }), 'to-move')).outcome.data as { uid: string };
    await held(hana);
    expect(await scheduleErrorOf(rescheduleBooking(deps, admin, uid, { start: TEN }))).toMatchObject({
      code: 'slot_unavailable',
      details: { reason: 'slot_busy' },
    });
  });

  it('takes one seat of a seated start, and counts against a daily limit, as the booking it may become', async () => {
    await store.db.updateTable('event_types').set({ seats: 2 }).where('id', '=', ET.meet).execute();
    // A seat taken by a booking leaves the other for a hold.
    await createBooking(deps, admin, book({ start: '2026-03-02T11:00:00Z' }), 'seated-11');
    expect((await createHold(deps, hana, hold({ start: '2026-03-02T11:00:00Z' }), 'seat-left')).outcome.status).toBe(201);
    await held(hana);
    const seatsLeft = async (principal: Principal) =>
      (
        (await listSlots(deps, principal, { event_type_id: ET.meet, start: TEN, end: '2026-03-02T10:30:00Z' })).outcome.data as {
          slots: { start: string; seats_left: number }[];
        }
      ).slots.map((slot) => slot.seats_left);
    expect(await seatsLeft(admin)).toEqual([1]);
    expect(await seatsLeft(hana)).toEqual([2]);
    expect((await createBooking(deps, admin, book(), 'seat-1')).outcome.status).toBe(201);
    expect(await outcomeOf(createBooking(deps, admin, book({ attendee: { email: 'carl@example.com' } }), 'seat-2'))).toBe(
      'slot_unavailable',
    );
    expect(await outcomeOf(createHold(deps, admin, hold(), 'seat-hold'))).toBe('slot_unavailable');

    await store.db.updateTable('event_types').set({ seats: null, max_bookings_per_day: 1 }).where('id', '=', ET.meet).execute();
    await store.db.deleteFrom('bookings').execute();
    expect(await outcomeOf(createBooking(deps, admin, book({ start: '2026-03-02T14:00:00Z' }), 'limit-1'))).toBe('slot_unavailable');
    expect((await createBooking(deps, admin, book({ start: '2026-03-03T14:00:00Z' }), 'limit-2')).outcome.status).toBe(201);
    // The holder books its held start: the hold it used up is not counted twice.
    const [own] = await store.db.selectFrom('holds').select('id').where('start_at', '=', TEN_ISO).execute();
    expect((await createBooking(deps, hana, book({ hold_id: own!.id }), 'limit-held')).outcome.status).toBe(201);
  });

  it('refuses with the booking’s own errors: a type switched off, a start in the past (a start at exactly now is not)', async () => {
    await store.db.updateTable('event_types').set({ status: 'off' }).where('id', '=', ET.meet).execute();
    expect(await scheduleErrorOf(createHold(deps, hana, hold()))).toEqual({
      code: 'event_type_inactive',
      message: 'This event type is not taking bookings.',
      details: {},
      retryAfterSeconds: undefined,
    });
    clock.set('2026-03-02T10:00:00.000Z');
    expect(await scheduleErrorOf(createHold(deps, hana, hold({ event_type_id: ET.long, start: '2026-03-02T09:59:59.999Z' })))).toEqual({
      code: 'slot_in_past',
      message: 'The start is in the past.',
      details: {},
      retryAfterSeconds: undefined,
    });
    expect((await createHold(deps, hana, hold({ event_type_id: ET.long, start: TEN }), 'at-now')).outcome.status).toBe(201);
  });

  it('keeps the held type’s buffers clear of the host’s bookings, checked in the write', async () => {
    await createBooking(deps, admin, book(), 'ten');
    expect(await scheduleErrorOf(createHold(deps, hana, hold({ event_type_id: ET.buffered, start: '2026-03-02T10:30:00Z' })))).toEqual({
      code: 'slot_unavailable',
      message: 'The host is not free at this time.',
      details: { reason: 'slot_busy' },
      retryAfterSeconds: undefined,
    });
    expect(
      (await createHold(deps, hana, hold({ event_type_id: ET.buffered, start: '2026-03-02T11:00:00Z' }), 'clear')).outcome.status,
    ).toBe(201);
    // A booking that ends five minutes into the buffer before 14:30 takes that start; the next is clear.
    await resetBookingWorkspace({ store, clock }, [
      { uid: '70000000-0000-4000-8000-0000000000b1', host: 'hana', slug: 'meet', start: '2026-03-02T13:50:00Z' },
    ]);
    expect(await outcomeOf(createHold(deps, hana, hold({ event_type_id: ET.buffered, start: '2026-03-02T14:30:00Z' }), 'in-buffer'))).toBe(
      'slot_unavailable',
    );
    expect(
      (await createHold(deps, hana, hold({ event_type_id: ET.buffered, start: '2026-03-02T15:00:00Z' }), 'past-buffer')).outcome.status,
    ).toBe(201);
    // And after it: a booking that starts five minutes into the buffer after 16:00–16:30 takes that start.
    await resetBookingWorkspace({ store, clock }, [
      { uid: '70000000-0000-4000-8000-0000000000b2', host: 'hana', slug: 'meet', start: '2026-03-02T16:40:00Z' },
    ]);
    expect(
      await outcomeOf(createHold(deps, hana, hold({ event_type_id: ET.buffered, start: '2026-03-02T16:00:00Z' }), 'after-buffer')),
    ).toBe('slot_unavailable');
  });

  it('refuses a hold of the same start on another event type, or of a type whose length changed since, as hold_mismatch', async () => {
    const { id } = await held(hana);
    expect(await scheduleErrorOf(createBooking(deps, hana, book({ hold_id: id, event_type_id: ET.fixed }), 'other-type'))).toMatchObject({
      code: 'hold_mismatch',
      details: { hold_id: id, event_type_id: ET.meet, start: TEN_ISO },
    });
    await store.db.updateTable('event_types').set({ duration_minutes: 45 }).where('id', '=', ET.meet).execute();
    expect(await outcomeOf(createBooking(deps, hana, book({ hold_id: id }), 'longer'))).toBe('hold_mismatch');
    // Refused, so the hold still stands.
    expect((await store.db.selectFrom('holds').select('id').execute()).map((r) => r.id)).toEqual([id]);
  });

  it('deletes the host’s holds expired more than a day ago when the host is next held; a younger expired one stays', async () => {
    const old = await held(hana, hold({ ttl_seconds: 30 }));
    const younger = await held(admin, hold({ start: '2026-03-02T11:00:00Z', ttl_seconds: 60 }));
    clock.set('2026-03-03T08:30:45.000Z');
    await held(hana, hold({ start: '2026-03-03T10:00:00Z' }));
    const ids = (await store.db.selectFrom('holds').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain(old.id);
    expect(ids).toContain(younger.id);
  });

  it('lets exactly one of two callers hold one start when they race', async () => {
    const results = await Promise.all([
      outcomeOf(createHold(deps, hana, hold(), 'race-hana')),
      outcomeOf(createHold(deps, admin, hold(), 'race-admin')),
    ]);
    expect(results.sort()).toEqual([201, 'slot_unavailable'].sort());
  });
});
