import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal, VisitorGrant } from '../src/auth/principal.js';
import { visitorManages, visitorMayBook, visitorMayBookHost, visitorPrincipal } from '../src/auth/visitor.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { describeCaller } from '../src/directory/directory.js';
import { bookingHost, publicEventType, publicHostPage } from '../src/event-types/public-event-types.js';
import { archiveEventTypeRow } from '../src/event-types/write-event-type.js';
import { listEventTypesOperation, listPeopleOperation, whoamiOperation } from '../src/operations/directory-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, createBooking, getBooking, listSlots, rescheduleBooking } from './support/booking-calls.js';
import { BERT, ET, HANA, IVAN, LENA, loadBookingWorkspace, NORA, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { createSeries } from './support/series-calls.js';
import { seriesBody } from './support/series-expect.js';
import { loadSeriesWorkspace, S0, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

// The booking page's caller (auth/visitor.ts): a principal that acts for
// nobody and reaches only what its grant names, through the same operations
// and `execute` as a token holder.

const BOOK_HANA: VisitorGrant = { kind: 'book', hostId: HANA };
const UID = '30000000-0000-4000-8000-0000000000a1';

/** A token holder acting for the whole organization. */
const owner: Principal = {
  tokenId: 'token-1',
  credential: { kind: 'pat' },
  account: { id: HANA, username: 'hana', email: 'hana@acme.test', name: 'Hana', timezone: 'UTC', role: 'owner' },
  scopes: new Set(['bookings:read']),
  actsFor: { kind: 'organization' },
};

describe('visitor principals', () => {
  it('a booking grant: its own idempotency space per host, no account, the scopes booking needs, acting for nobody', () => {
    expect(visitorPrincipal(BOOK_HANA)).toEqual({
      tokenId: `visitor:book:${HANA}`,
      credential: { kind: 'visitor', grant: BOOK_HANA },
      account: { id: `visitor:book:${HANA}`, username: '', email: '', name: '', timezone: 'UTC', role: 'user' },
      scopes: new Set(['slots:read', 'bookings:create', 'series:write']),
      actsFor: { kind: 'users', ids: new Set() },
    });
  });

  it('a manage grant: its space per booking, the scopes reading, moving and canceling one booking need', () => {
    const grant: VisitorGrant = { kind: 'manage', bookingUid: UID, eventTypeId: ET.meet };
    expect(visitorPrincipal(grant)).toEqual({
      tokenId: `visitor:manage:${UID}`,
      credential: { kind: 'visitor', grant },
      account: { id: `visitor:manage:${UID}`, username: '', email: '', name: '', timezone: 'UTC', role: 'user' },
      scopes: new Set(['slots:read', 'bookings:read', 'bookings:reschedule', 'bookings:cancel']),
      actsFor: { kind: 'users', ids: new Set() },
    });
  });

  it("books the host's public and hidden types, never a private one or another host's", () => {
    const visitor = visitorPrincipal(BOOK_HANA);
    const type = (visibility: 'public' | 'hidden' | 'private', ownerId = HANA) => ({ id: ET.meet, ownerId, visibility });
    expect(visitorMayBook(visitor, type('public'))).toBe(true);
    expect(visitorMayBook(visitor, type('hidden'))).toBe(true);
    expect(visitorMayBook(visitor, type('private'))).toBe(false);
    expect(visitorMayBook(visitor, type('public', IVAN))).toBe(false);
  });

  it('a manage grant books the type of its booking, whatever its visibility, and no other; none before the booking is read', () => {
    const managing = visitorPrincipal({ kind: 'manage', bookingUid: UID, eventTypeId: ET.meet });
    expect(visitorMayBook(managing, { id: ET.meet, ownerId: IVAN, visibility: 'private' })).toBe(true);
    expect(visitorMayBook(managing, { id: ET.long, ownerId: HANA, visibility: 'public' })).toBe(false);
    const unread = visitorPrincipal({ kind: 'manage', bookingUid: UID });
    expect(visitorMayBook(unread, { id: ET.meet, ownerId: HANA, visibility: 'public' })).toBe(false);
  });

  it('a token holder is no visitor: none of these checks lets it through, whom it acts for is judged elsewhere', () => {
    expect(visitorMayBook(owner, { id: ET.meet, ownerId: HANA, visibility: 'public' })).toBe(false);
    expect(visitorMayBookHost(owner, HANA)).toBe(false);
    expect(visitorManages(owner, UID)).toBe(false);
  });

  it('a booking grant names its host for a series, and manages nothing; a manage grant names its booking, and no host', () => {
    const visitor = visitorPrincipal(BOOK_HANA);
    expect(visitorMayBookHost(visitor, HANA)).toBe(true);
    expect(visitorMayBookHost(visitor, IVAN)).toBe(false);
    expect(visitorManages(visitor, UID)).toBe(false);
    // A booking grant whose host id happens to be the uid still manages nothing.
    expect(visitorManages(visitorPrincipal({ kind: 'book', hostId: UID }), UID)).toBe(false);
    const managing = visitorPrincipal({ kind: 'manage', bookingUid: UID, eventTypeId: ET.meet });
    expect(visitorManages(managing, UID)).toBe(true);
    expect(visitorManages(managing, '30000000-0000-4000-8000-0000000000b2')).toBe(false);
    expect(visitorMayBookHost(managing, HANA)).toBe(false);
    expect(visitorMayBookHost(visitorPrincipal({ kind: 'manage', bookingUid: HANA }), HANA)).toBe(false);
  });

  it('describes no visitor: it holds no token', () => {
    expect(() => describeCaller(visitorPrincipal(BOOK_HANA))).toThrow(
      expect.objectContaining({ code: 'insufficient_scope', message: 'A visitor of the booking page holds no token.', details: {} }),
    );
    expect(describeCaller(owner).credential).toBe('pat');
  });
});

const ATTENDEE = { email: 'vera@visitor.test', name: 'Vera Visitor', timezone: 'Europe/Berlin' };
const WINDOW = { start: '2026-03-03T09:00:00Z', end: '2026-03-03T10:00:00Z' };
/** hana's `buffered` is hidden, `fixed` private for this suite. */
const CHANGES = { buffered: { visibility: 'hidden' }, fixed: { visibility: 'private' } };

describe.each(storeFixtures())('a visitor through execute on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  const visitor = visitorPrincipal(BOOK_HANA);

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock }, [], CHANGES);
    hana = await principalOf({ store, clock }, TOKEN.hana);
  });
  beforeEach(async () => {
    clock.set(T0);
    await resetBookingWorkspace({ store, clock }, [], CHANGES);
  });
  afterAll(() => fixture.cleanup());

  const slotsOf = async (principal: Principal, query: Record<string, unknown>) => {
    const { outcome } = await listSlots(deps, principal, { ...query, ...WINDOW });
    return (outcome.data as { slots: { start: string }[] }).slots.map((s) => s.start);
  };
  const notFound = async (principal: Principal, query: Record<string, unknown>) =>
    (await scheduleErrorOf(listSlots(deps, principal, { ...query, ...WINDOW }))).code;
  const book = async (principal: Principal, eventTypeId: string, start = '2026-03-03T09:00:00Z') => {
    const { outcome } = await createBooking(deps, principal, { event_type_id: eventTypeId, start, attendee: ATTENDEE }, `book-${start}`);
    expect(outcome.status).toBe(201);
    return outcome.data as { uid: string; event_type_id: string };
  };

  it("sees the slots of the host's public and hidden types, by id or by name", async () => {
    expect(await slotsOf(visitor, { event_type_id: ET.meet })).toEqual(['2026-03-03T09:00:00.000Z', '2026-03-03T09:30:00.000Z']);
    expect(await slotsOf(visitor, { event_type_id: ET.buffered })).toEqual(['2026-03-03T09:00:00.000Z', '2026-03-03T09:30:00.000Z']);
    expect(await slotsOf(visitor, { username: 'hana', event_slug: 'meet' })).toEqual([
      '2026-03-03T09:00:00.000Z',
      '2026-03-03T09:30:00.000Z',
    ]);
  });

  it("answers 404 for a private type, another host's, and an unknown one, as for any type it may not see", async () => {
    expect(await notFound(visitor, { event_type_id: ET.fixed })).toBe('event_type_not_found');
    expect(await notFound(visitor, { username: 'hana', event_slug: 'fixed' })).toBe('event_type_not_found');
    expect(await notFound(visitor, { event_type_id: ET.ivanLong })).toBe('event_type_not_found');
    expect(await notFound(visitor, { username: 'ivan', event_slug: 'long' })).toBe('event_type_not_found');
    expect(await notFound(visitor, { username: 'hana', event_slug: 'nothing' })).toBe('event_type_not_found');
    // The host's own token still sees the private type.
    expect(await slotsOf(hana, { event_type_id: ET.fixed })).toEqual(['2026-03-03T09:00:00.000Z', '2026-03-03T09:30:00.000Z']);
  });

  it('books a public type; a private one is 404 and writes nothing; reading a booking is beyond its scopes', async () => {
    const booked = await book(visitor, ET.meet);
    expect(booked.event_type_id).toBe(ET.meet);
    expect(
      (
        await scheduleErrorOf(
          createBooking(deps, visitor, { event_type_id: ET.fixed, start: '2026-03-03T10:00:00Z', attendee: ATTENDEE }, 'private'),
        )
      ).code,
    ).toBe('event_type_not_found');
    expect(await store.db.selectFrom('bookings').select('uid').execute()).toEqual([{ uid: booked.uid }]);
    expect((await scheduleErrorOf(getBooking(deps, visitor, booked.uid))).code).toBe('insufficient_scope');
  });

  it('a manage grant reads, moves and cancels its booking; any other booking is 404', async () => {
    const mine = await book(hana, ET.meet);
    const other = await book(hana, ET.meet, '2026-03-03T13:00:00Z');
    const managing = visitorPrincipal({ kind: 'manage', bookingUid: mine.uid, eventTypeId: ET.meet });
    expect(await getBooking(deps, managing, mine.uid)).toMatchObject({ status: 200, data: { uid: mine.uid } });
    // In capitals too, as any uid.
    expect(await getBooking(deps, managing, mine.uid.toUpperCase())).toMatchObject({ status: 200, data: { uid: mine.uid } });
    expect((await scheduleErrorOf(getBooking(deps, managing, other.uid))).code).toBe('booking_not_found');
    expect((await scheduleErrorOf(cancelBooking(deps, managing, other.uid, {}, 'cancel-other'))).code).toBe('booking_not_found');
    expect(
      (await scheduleErrorOf(rescheduleBooking(deps, managing, other.uid, { start: '2026-03-04T09:00:00Z' }, 'move-other'))).code,
    ).toBe('booking_not_found');
    const moved = await rescheduleBooking(deps, managing, mine.uid, { start: '2026-03-04T09:00:00Z' }, 'move-mine');
    expect(moved.outcome).toMatchObject({ status: 200, data: { uid: mine.uid, start_at: '2026-03-04T09:00:00.000Z' } });
    expect((await cancelBooking(deps, managing, mine.uid, { reason: 'Cannot come' }, 'cancel-mine')).outcome).toMatchObject({
      status: 200,
      data: { uid: mine.uid, status: 'canceled' },
    });
    expect(await getBooking(deps, hana, other.uid)).toMatchObject({ status: 200, data: { status: 'confirmed' } });
  });

  it("a manage grant sees the slots of its booking's type, private ones too, and of no other type", async () => {
    const managing = visitorPrincipal({ kind: 'manage', bookingUid: UID, eventTypeId: ET.fixed });
    expect(await slotsOf(managing, { event_type_id: ET.fixed })).toEqual(['2026-03-03T09:00:00.000Z', '2026-03-03T09:30:00.000Z']);
    expect(await notFound(managing, { event_type_id: ET.meet })).toBe('event_type_not_found');
    expect(await notFound(visitorPrincipal({ kind: 'manage', bookingUid: UID }), { event_type_id: ET.fixed })).toBe('event_type_not_found');
  });

  it('may not ask who it is, nor list people or event types: it holds no token', async () => {
    for (const operation of [whoamiOperation, listPeopleOperation, listEventTypesOperation]) {
      for (const principal of [visitor, visitorPrincipal({ kind: 'manage', bookingUid: UID, eventTypeId: ET.meet })]) {
        const refused = await scheduleErrorOf(execute(deps, operation, principal, { params: {}, query: {}, body: undefined }, 'req-who'));
        expect(refused).toMatchObject({
          code: 'insufficient_scope',
          message: 'A visitor of the booking page may not call this.',
          details: { required_scope: null },
        });
      }
    }
    expect((await execute(deps, whoamiOperation, hana, { params: {}, query: {}, body: undefined }, 'req-who')).outcome.status).toBe(200);
  });

  it('reads what the booking page shows of an event type: no more than the page needs', async () => {
    expect(await publicEventType(store.db, visitor, 'hana', 'meet')).toEqual({
      id: ET.meet,
      slug: 'meet',
      name: 'Meeting',
      description: null,
      durationMinutes: 30,
      bookable: true,
      recurring: true,
      allowReschedule: true,
      locationType: 'conference',
      questions: [{ id: 'topic', label: 'Topic', type: 'text', required: false }],
      host: { username: 'hana', name: 'Hana Host', timezone: 'UTC' },
    });
    await expect(publicEventType(store.db, visitor, 'hana', 'fixed')).rejects.toMatchObject({ code: 'event_type_not_found' });
    await expect(publicEventType(store.db, visitor, 'ivan', 'long')).rejects.toMatchObject({ code: 'event_type_not_found' });
  });

  it('shows a switched-off, one-off, fixed type with a phone as such, the phone number left out; the zone of the hours first', async () => {
    await resetBookingWorkspace({ store, clock }, [], {
      ...CHANGES,
      paused: { description: 'Not now', recurring: 'off', location: { type: 'phone', value: '+49 30 1234' } },
    });
    const managing = visitorPrincipal({ kind: 'manage', bookingUid: UID, eventTypeId: ET.fixed });
    expect(await publicEventType(store.db, visitor, 'hana', 'paused')).toMatchObject({
      description: 'Not now',
      bookable: false,
      recurring: false,
      locationType: 'phone',
    });
    expect(JSON.stringify(await publicEventType(store.db, visitor, 'hana', 'paused'))).not.toContain('1234');
    expect(await publicEventType(store.db, managing, 'hana', 'fixed')).toMatchObject({ allowReschedule: false });
    // bert works on Berlin time though his account says Tokyo; lena's hours name no zone, so her account's shows.
    const bertMeet = await publicEventType(store.db, visitorPrincipal({ kind: 'book', hostId: BERT }), 'bert', 'meet');
    expect(bertMeet.host).toEqual({ username: 'bert', name: 'Bert Berlin', timezone: 'Europe/Berlin' });
    const noraMeet = await publicEventType(store.db, visitorPrincipal({ kind: 'book', hostId: NORA }), 'nora', 'meet');
    expect(noraMeet.host.timezone).toBe('America/New_York');
    const lenaMeet = await publicEventType(store.db, visitorPrincipal({ kind: 'book', hostId: LENA }), 'lena', 'meet');
    expect(lenaMeet.host.timezone).toBe('Asia/Tokyo');
  });

  it("a host's page lists the public, live, switched-on types by name then slug; its host's zone is that of the hours", async () => {
    await resetBookingWorkspace({ store, clock }, [], { ...CHANGES, meet: { name: 'Same' }, long: { name: 'Same' } });
    await archiveEventTypeRow(store.db, ET.form, T0);
    expect(await publicHostPage(store.db, 'hana')).toEqual({
      host: { username: 'hana', name: 'Hana Host', timezone: 'UTC' },
      eventTypes: [
        { slug: 'long', name: 'Same', description: null, durationMinutes: 60 },
        { slug: 'meet', name: 'Same', description: null, durationMinutes: 30 },
      ],
    });
    expect(await publicHostPage(store.db, 'bert')).toMatchObject({ host: { timezone: 'Europe/Berlin' } });
    expect(await publicHostPage(store.db, 'nora')).toEqual({
      host: { username: 'nora', name: 'Nora Nohours', timezone: 'America/New_York' },
      eventTypes: [{ slug: 'meet', name: 'Meeting', description: null, durationMinutes: 30 }],
    });
    expect(await publicHostPage(store.db, 'nobody')).toBeUndefined();
    await store.db.updateTable('event_types').set({ archived_at: null }).where('id', '=', ET.form).execute();
  });

  it('knows a live host by username, and neither an unknown nor a deactivated one', async () => {
    expect(await bookingHost(store.db, 'hana')).toEqual({ id: HANA });
    expect(await bookingHost(store.db, 'nobody')).toBeUndefined();
    await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', '=', IVAN).execute();
    try {
      expect(await bookingHost(store.db, 'ivan')).toBeUndefined();
      expect(await publicHostPage(store.db, 'ivan')).toBeUndefined();
    } finally {
      await store.db.updateTable('users').set({ deactivated_at: null }).where('id', '=', IVAN).execute();
    }
    expect(await bookingHost(store.db, 'ivan')).toEqual({ id: IVAN });
  });
});

describe.each(storeFixtures())('a visitor booking a series on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;

  beforeAll(async () => {
    store = await fixture.open();
    const clock = manualClock(S0);
    deps = testDeps(store, clock);
    await loadSeriesWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  const visitor = visitorPrincipal({ kind: 'book', hostId: USER.hana });
  const refusal = async (principal: Principal, body: Record<string, unknown>) => await scheduleErrorOf(createSeries(deps, principal, body));

  it('books a series with the host of its grant, named by id or username', async () => {
    expect((await createSeries(deps, visitor, seriesBody())).outcome.status).toBe(201);
    const byName = seriesBody({ host_user_id: undefined, host_username: 'hana', starts_on: '2026-04-06' });
    expect((await createSeries(deps, visitor, byName)).outcome.status).toBe(201);
  });

  it('any other host is 403 host_not_allowed, by id or username; a manage grant may not write series at all', async () => {
    expect(await refusal(visitor, seriesBody({ host_user_id: USER.ivan }))).toMatchObject({
      code: 'host_not_allowed',
      details: { fields: ['host_user_id'] },
    });
    expect(await refusal(visitor, seriesBody({ host_user_id: undefined, host_username: 'ivan' }))).toMatchObject({
      code: 'host_not_allowed',
      details: { fields: ['host_username'] },
    });
    expect((await refusal(visitorPrincipal({ kind: 'manage', bookingUid: UID }), seriesBody())).code).toBe('insufficient_scope');
  });
});
