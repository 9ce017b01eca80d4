import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { blockingBookings } from '../src/availability/load-host-time.js';
import { declineUnanswered, UNANSWERED_REASON } from '../src/bookings/decline-unanswered.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { loopPass } from '../src/notifications/dispatch-loop.js';
import type { Mail } from '../src/notifications/mailer.js';
import { confirmBookingOperation, declineBookingOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, checkSlot, createBooking, getBooking, listSlots, outboxOf } from './support/booking-calls.js';
import { ET, HANA, loadBookingWorkspace, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { createSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// An event type that requires confirmation (docs/api/endpoints.md "Pending
// bookings"): its bookings start pending, hold their time like confirmed
// ones until their start (the deadline), and the host confirms or declines.

const START = '2026-03-02T14:00:00.000Z';
const END = '2026-03-02T14:30:00.000Z';
const T1 = '2026-03-02T09:00:00.000Z';
const REQUIRES = { meet: { requires_confirmation: true } };
const body = (start = START, email = 'kim@example.com') => ({ event_type_id: ET.meet, start, attendee: { email, name: 'Kim' } });

let keys = 0;
const key = (name: string) => `${name}-${++keys}`;

describe.each(storeFixtures())('pending bookings on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let ivan: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock }, [], REQUIRES);
    hana = await principalOf({ store, clock }, TOKEN.hana);
    ivan = await principalOf({ store, clock }, TOKEN.ivan);
  });
  beforeEach(async () => {
    clock.set(T0);
    await store.db.deleteFrom('notifications').execute();
    await resetBookingWorkspace({ store, clock }, [], REQUIRES);
    clock.set(T1);
  });
  afterAll(() => fixture.cleanup());

  const confirm = (uid: string, who = hana, ifMatch?: string) =>
    execute(
      deps,
      confirmBookingOperation,
      who,
      { params: { uid }, query: {}, body: undefined, idempotencyKey: key('confirm'), ifMatch },
      'req',
    );
  const decline = (uid: string, reason?: string, who = hana) =>
    execute(
      deps,
      declineBookingOperation,
      who,
      { params: { uid }, query: {}, body: reason === undefined ? undefined : { reason }, idempotencyKey: key('decline') },
      'req',
    );
  const requested = async (start = START) => {
    const { outcome } = await createBooking(deps, hana, body(start), key('create'));
    return outcome.data as { uid: string; status: string; version: number };
  };
  const mailKinds = async () =>
    (await store.db.selectFrom('notifications').select(['kind', 'recipient']).orderBy('kind').orderBy('recipient').execute()).map(
      (m) => `${m.kind} ${m.recipient}`,
    );
  const slotStarts = async () => {
    const { outcome } = await listSlots(deps, hana, { event_type_id: ET.meet, start: '2026-03-02T00:00:00Z', end: '2026-03-03T00:00:00Z' });
    return (outcome.data as { slots: { start: string }[] }).slots.map((s) => new Date(s.start).toISOString());
  };
  const busy = {
    code: 'slot_unavailable',
    message: 'The host is not free at this time.',
    details: { reason: 'slot_busy' },
    retryAfterSeconds: undefined,
  };

  it('creates a pending booking with booking.requested (not booking.created) and the request mail to host and attendee', async () => {
    const { outcome } = await createBooking(deps, hana, body(), 'key-create');
    expect(outcome).toMatchObject({ status: 201, version: 1, data: { status: 'pending', start_at: START, end_at: END } });
    const uid = (outcome.data as { uid: string }).uid;
    expect((await outboxOf(store)).map((e) => [e.event_type, e.subject_uid, e.payload.status])).toEqual([
      ['booking.requested', uid, 'pending'],
    ]);
    expect(await mailKinds()).toEqual(['booking_requested hana@acme.test', 'booking_requested kim@example.com']);
  });

  it('holds the time like a confirmed booking: slots leave it out, check says busy, a create is refused (list = check = create)', async () => {
    expect(await slotStarts()).toContain(START);
    await requested();
    expect(await slotStarts()).not.toContain(START);
    const { outcome } = await checkSlot(deps, hana, { event_type_id: ET.meet, start: START });
    expect(outcome.data).toMatchObject({ available: false, reason: 'slot_busy' });
    expect(await scheduleErrorOf(createBooking(deps, hana, body(START, 'other@example.com'), 'key-2'))).toEqual(busy);
  });

  it('confirms: confirmed, version 2, booking.confirmed and the confirmation mail; the time stays held', async () => {
    const { uid } = await requested();
    await store.db.deleteFrom('notifications').execute();
    const { outcome } = await confirm(uid);
    expect(outcome).toMatchObject({ status: 200, version: 2, data: { uid, status: 'confirmed', version: 2, updated_at: T1 } });
    expect((await outboxOf(store)).map((e) => e.event_type).sort()).toEqual(['booking.confirmed', 'booking.requested']);
    expect(await mailKinds()).toEqual(['booking_confirmed hana@acme.test', 'booking_confirmed kim@example.com']);
    expect(await slotStarts()).not.toContain(START);
  });

  it('refuses to confirm or decline a booking that is not pending: 409 booking_not_pending with its status', async () => {
    const { uid } = await requested();
    await confirm(uid);
    const notPending = (status: string) => ({
      code: 'booking_not_pending',
      message: `Only a pending booking can be confirmed or declined; this one is ${status}.`,
      details: { status },
      retryAfterSeconds: undefined,
    });
    expect(await scheduleErrorOf(confirm(uid))).toEqual(notPending('confirmed'));
    expect(await scheduleErrorOf(decline(uid))).toEqual(notPending('confirmed'));
    const other = await requested('2026-03-02T15:00:00Z');
    await cancelBooking(deps, hana, other.uid, {}, key('cancel'));
    expect(await scheduleErrorOf(confirm(other.uid))).toEqual(notPending('canceled'));
  });

  it('declines with a reason: declined, reason and time kept, booking.declined by the host, and the time is free again', async () => {
    const { uid } = await requested();
    await store.db.deleteFrom('notifications').execute();
    const { outcome } = await decline(uid, 'Fully booked');
    expect(outcome).toMatchObject({
      status: 200,
      version: 2,
      data: { uid, status: 'declined', cancelled_at: T1, cancellation_reason: 'Fully booked', version: 2 },
    });
    const events = await outboxOf(store);
    expect(events.map((e) => e.event_type).sort()).toEqual(['booking.declined', 'booking.requested']);
    expect(events.find((e) => e.event_type === 'booking.declined')?.payload).toMatchObject({
      uid,
      status: 'declined',
      reason: 'Fully booked',
      declined_by: 'host',
    });
    expect(await mailKinds()).toEqual(['booking_declined hana@acme.test', 'booking_declined kim@example.com']);
    expect(await slotStarts()).toContain(START);
    expect((await createBooking(deps, hana, body(START, 'next@example.com'), key('create'))).outcome.status).toBe(201);
    expect(await scheduleErrorOf(decline(uid))).toMatchObject({ code: 'booking_not_pending', details: { status: 'declined' } });
  });

  it('a cancel of a declined booking answers it unchanged; a pending one may be canceled by the attendee side', async () => {
    const { uid } = await requested();
    await decline(uid);
    expect((await cancelBooking(deps, hana, uid, {}, key('cancel'))).outcome).toMatchObject({
      status: 200,
      data: { status: 'declined', version: 2 },
    });
    const other = await requested('2026-03-02T15:00:00Z');
    expect((await cancelBooking(deps, hana, other.uid, {}, key('cancel'))).outcome).toMatchObject({ data: { status: 'canceled' } });
  });

  it('checks If-Match when sent: a stale version is 409 version_conflict and nothing changes', async () => {
    const { uid } = await requested();
    expect(await scheduleErrorOf(confirm(uid, hana, '"7"'))).toEqual({
      code: 'version_conflict',
      message: 'The booking is at version 1.',
      details: { current_version: 1 },
      retryAfterSeconds: undefined,
    });
    expect((await confirm(uid, hana, '"1"')).outcome).toMatchObject({ data: { status: 'confirmed' } });
  });

  it('is 404 booking_not_found for someone who may not act for the host, and refused to the booking page visitor', async () => {
    const { uid } = await requested();
    const notFound = { code: 'booking_not_found', message: 'No booking with this uid.', details: { uid }, retryAfterSeconds: undefined };
    expect(await scheduleErrorOf(confirm(uid, ivan))).toEqual(notFound);
    expect(await scheduleErrorOf(decline(uid, undefined, ivan))).toEqual(notFound);
    const visitor = visitorPrincipal({ kind: 'manage', bookingUid: uid, eventTypeId: ET.meet });
    expect(await scheduleErrorOf(confirm(uid, visitor))).toMatchObject({ code: 'insufficient_scope' });
    // Even with the scope, a visitor acts for no host: the booking it manages is not its to answer.
    const scoped: Principal = { ...visitor, scopes: new Set([...visitor.scopes, 'bookings:update']) };
    expect(await scheduleErrorOf(confirm(uid, scoped))).toEqual(notFound);
    expect(await scheduleErrorOf(decline(uid, undefined, scoped))).toEqual(notFound);
    expect((await getBooking(deps, hana, uid)).data).toMatchObject({ status: 'pending', version: 1 });
  });

  it('refuses a series on the type: 409 recurring_disabled, reason requires_confirmation', async () => {
    const withSeries: Principal = { ...hana, scopes: new Set([...hana.scopes, 'series:write']) };
    const series = {
      host_user_id: HANA,
      event_type_id: ET.meet,
      attendee: { email: 'kim@example.com', name: 'Kim' },
      frequency: 'weekly',
      weekdays: ['tue'],
      time: '10:00',
      timezone: 'UTC',
      starts_on: '2026-03-03',
      count: 2,
    };
    expect(await scheduleErrorOf(createSeries(deps, withSeries, series))).toEqual({
      code: 'recurring_disabled',
      message: "This event type requires the host's confirmation of each booking; it takes no series.",
      details: { reason: 'requires_confirmation' },
      retryAfterSeconds: undefined,
    });
  });

  describe('the deadline: the start', () => {
    const startMs = Date.parse(START);
    const blocking = async (nowMs: number) =>
      blockingBookings(store.db, HANA, { startMs: startMs - 60_000, endMs: startMs + 60_000 }, nowMs);

    it('blocks until the start, and from the start on not, before any pass has run', async () => {
      await requested();
      expect(await blocking(startMs - 1)).toEqual([{ startMs, endMs: Date.parse(END) }]);
      expect(await blocking(startMs)).toEqual([]);
    });

    it('is declined by the pass exactly at its start, once, with booking.declined by the deadline and the mail', async () => {
      const { uid } = await requested();
      await store.db.deleteFrom('notifications').execute();
      clock.set(startMs - 1);
      expect(await declineUnanswered(deps)).toBe(0);
      expect((await getBooking(deps, hana, uid)).data).toMatchObject({ status: 'pending' });
      clock.set(startMs);
      expect(await declineUnanswered(deps)).toBe(1);
      expect(await declineUnanswered(deps)).toBe(0);
      expect((await getBooking(deps, hana, uid)).data).toMatchObject({
        status: 'declined',
        version: 2,
        cancelled_at: START,
        cancellation_reason: null,
        updated_at: START,
      });
      const events = await outboxOf(store);
      expect(events.map((e) => e.event_type)).toEqual(['booking.requested', 'booking.declined']);
      expect(events[1]?.payload).toMatchObject({ uid, status: 'declined', version: 2, reason: UNANSWERED_REASON, declined_by: 'deadline' });
      expect(await mailKinds()).toEqual(['booking_declined hana@acme.test', 'booking_declined kim@example.com']);
    });

    it('refuses confirm and decline at the deadline, before the pass: the booking no longer holds its time', async () => {
      const { uid } = await requested();
      clock.set(startMs);
      const expired = {
        code: 'booking_not_pending',
        message: 'The answer was due by the booking start; it is declined.',
        details: { status: 'declined' },
        retryAfterSeconds: undefined,
      };
      expect(await scheduleErrorOf(confirm(uid))).toEqual(expired);
      expect(await scheduleErrorOf(decline(uid))).toEqual(expired);
    });

    it("runs in the dispatch loop's pass, which goes again at once to send its mail", async () => {
      await requested();
      await store.db.deleteFrom('notifications').execute();
      clock.set(startMs);
      const sent: Mail[] = [];
      const loopDeps = { store, clock, ids: deps.ids, mailer: { send: async (mail: Mail) => void sent.push(mail) } };
      expect(await loopPass(loopDeps)).toEqual({ report: { sent: 0, suppressed: 0, failed: 0, deferred: 0 }, more: true });
      expect(await loopPass(loopDeps)).toEqual({ report: { sent: 2, suppressed: 0, failed: 0, deferred: 0 }, more: false });
      expect(sent.map((m) => m.subject).sort()).toEqual(['Declined: Meeting with Hana Host', 'Declined: Meeting with Kim']);
      expect(sent.every((m) => m.calendar === undefined)).toBe(true);
    });
  });
});
