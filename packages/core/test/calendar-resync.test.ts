import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { createCalendarReader } from '../src/availability/calendar-reader.js';
import { createCalendarSyncer } from '../src/calendar-sync/calendar-syncer.js';
import { resyncFailed } from '../src/calendar-sync/resync-calendar.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { operationsByName } from '../src/operations/registry.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { cancelBooking, createBooking, getBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { forgetBookings, type ModelCalendar, modelCalendar } from './support/model-calendar.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// docs/calendars.md "Writing it again": `resync_calendar` queues the calendar
// write of one booking, or of every failed one of a host, again; the syncer
// then writes it as it writes any other (against the model account of
// support/model-calendar.ts).

const CARA = '73000000-0000-4000-8000-00000000000a';
const EVE = '73000000-0000-4000-8000-00000000000b';
const MIA = '73000000-0000-4000-8000-00000000000c';
const CARA_CALL = '74000000-0000-4000-8000-00000000000a';
const EVE_CALL = '74000000-0000-4000-8000-00000000000b';
const CAL_URL = 'https://cal.test/bookings/';
const T0 = Date.parse('2026-06-01T08:00:00Z');
const BOOKINGS = ['bookings:read', 'bookings:create', 'bookings:cancel', 'bookings:reschedule'];

const caldav = (username: string) => ({
  kind: 'caldav',
  url: 'https://cal.test/',
  username,
  password_env: 'RESYNC_CALDAV_PASSWORD',
  book_into: 'bookings',
});

function workspace() {
  return {
    organization: { name: 'Resync Org' },
    users: [
      { id: CARA, username: 'cara', email: 'cara@resync.test', timezone: 'UTC', role: 'user', calendars: [caldav('cara')] },
      { id: EVE, username: 'eve', email: 'eve@resync.test', timezone: 'UTC', role: 'user', calendars: [caldav('eve')] },
      { id: MIA, username: 'mia', email: 'mia@resync.test', timezone: 'UTC', role: 'manager', manages: [CARA] },
    ],
    event_types: [
      { id: CARA_CALL, owner: 'cara', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
      { id: EVE_CALL, owner: 'eve', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
    ],
    tokens: [
      { name: 'cara', user: 'cara', secret: 'pat_resync_cara_all', scopes: [...BOOKINGS, 'calendars:write'] },
      { name: 'cara-bookings', user: 'cara', secret: 'pat_resync_cara_bookings', scopes: [...BOOKINGS, 'bookings:update'] },
      { name: 'eve', user: 'eve', secret: 'pat_resync_eve_all_x', scopes: [...BOOKINGS, 'calendars:write'] },
      { name: 'mia', user: 'mia', secret: 'pat_resync_mia_manager', scopes: ['calendars:write'] },
    ],
  };
}

describe.each(storeFixtures())('resync_calendar on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let model: ModelCalendar;
  const who: Record<'cara' | 'caraBookings' | 'eve' | 'mia', Principal> = {} as never;
  let n = 0;

  // Every write fails at once when it fails at all: a failure is `failed` after one attempt.
  const step = () => createCalendarSyncer({ store, clock, ids: randomIds, connector: model.connector, retryDelaysMs: [] }).step();
  const resync = (principal: Principal, body: unknown, key?: string) =>
    execute(deps, operationsByName.resync_calendar, principal, { params: {}, query: {}, body, idempotencyKey: key }, 'req-resync');
  const booked = async (principal: Principal, eventType: string, hour: number) => {
    n += 1;
    const start = `2026-06-02T${String(hour).padStart(2, '0')}:00:00Z`;
    const made = await createBooking(
      deps,
      principal,
      { event_type_id: eventType, start, attendee: { email: 'ann@example.com' } },
      `k-${n}`,
    );
    return (made.outcome as unknown as { data: { uid: string } }).data.uid;
  };
  /** One of Cara's bookings as she reads it. */
  const bookingNow = async (uid: string) => ((await getBooking(deps, who.cara, uid)) as unknown as { data: Record<string, unknown> }).data;
  const syncRow = (uid: string) =>
    store.db.selectFrom('calendar_syncs').selectAll().where('booking_uid', '=', uid).executeTakeFirstOrThrow();
  /** Bookings whose first write failed: the calendar was down. */
  const failedBookings = async (principal: Principal, eventType: string, hours: readonly number[]) => {
    const uids: string[] = [];
    for (const hour of hours) uids.push(await booked(principal, eventType, hour));
    model.down = true;
    await step();
    model.down = false;
    for (const uid of uids) expect(await syncRow(uid)).toMatchObject({ status: 'failed' });
    return uids;
  };

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace())));
    // Availability reads no CalDAV here: the hosts are free whenever the tests book.
    deps = testDeps(store, clock, {
      calendars: createCalendarReader(
        async () => [],
        async () => [],
      ),
    });
    who.cara = await principalOf({ store, clock }, 'pat_resync_cara_all');
    who.caraBookings = await principalOf({ store, clock }, 'pat_resync_cara_bookings');
    who.eve = await principalOf({ store, clock }, 'pat_resync_eve_all_x');
    who.mia = await principalOf({ store, clock }, 'pat_resync_mia_manager');
  });
  afterAll(() => fixture.cleanup());
  beforeEach(async () => {
    model = modelCalendar(CAL_URL);
    await forgetBookings(store);
  });

  it('a failed sync is written on request once its cause is gone: 202, pending (updated_at moves, version not), then synced', async () => {
    const [uid] = await failedBookings(who.cara, CARA_CALL, [10]);
    const before = await bookingNow(uid!);
    expect(before).toMatchObject({ calendar_sync_status: 'failed', version: 1 });
    expect(await step()).toEqual({ attempted: 0, more: false }); // failed stays failed by itself

    clock.advance(1000);
    const { outcome } = await resync(who.cara, { booking_uid: uid });
    expect(outcome).toEqual({ status: 202, data: { queued: 1, remaining: 0 } });
    expect(await bookingNow(uid!)).toMatchObject({ calendar_sync_status: 'pending', version: 1, updated_at: '2026-06-01T08:00:01.000Z' });
    expect(await syncRow(uid!)).toMatchObject({ status: 'pending', attempts: 0, last_error: null });

    expect(await step()).toEqual({ attempted: 1, more: false });
    const href = `${CAL_URL}${uid}.ics`;
    expect(await bookingNow(uid!)).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href, version: 1 });
    expect([...model.objects.keys()]).toEqual([href]);
  });

  it('a synced booking whose event was deleted in the calendar is written again; a canceled one whose removal failed is removed', async () => {
    const kept = await booked(who.cara, CARA_CALL, 10);
    const gone = await booked(who.cara, CARA_CALL, 11);
    await step();
    model.objects.delete(`${CAL_URL}${kept}.ics`);
    model.down = true;
    await cancelBooking(deps, who.cara, gone, {}, 'k-cancel');
    await step();
    model.down = false;
    expect(await bookingNow(gone)).toMatchObject({ status: 'canceled', calendar_sync_status: 'failed' });

    await resync(who.cara, { booking_uid: kept });
    await resync(who.cara, { booking_uid: gone });
    expect(await step()).toEqual({ attempted: 2, more: false });
    expect([...model.objects.keys()]).toEqual([`${CAL_URL}${kept}.ics`]);
    expect(await bookingNow(gone)).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: '' });
  });

  it("every failed sync of the caller's own bookings, none of anyone else's, none that did not fail", async () => {
    const caraFailed = await failedBookings(who.cara, CARA_CALL, [10, 11]);
    const eveFailed = await failedBookings(who.eve, EVE_CALL, [10]);
    const caraSynced = await booked(who.cara, CARA_CALL, 12);
    await step();

    const { outcome } = await resync(who.cara, {});
    expect(outcome).toEqual({ status: 202, data: { queued: 2, remaining: 0 } });
    for (const uid of caraFailed) expect(await syncRow(uid)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await syncRow(eveFailed[0]!)).toMatchObject({ status: 'failed' });
    expect(await syncRow(caraSynced)).toMatchObject({ status: 'synced' });
    expect(await step()).toEqual({ attempted: 2, more: false });
    for (const uid of caraFailed) expect(await bookingNow(uid)).toMatchObject({ calendar_sync_status: 'synced' });
  });

  it('nothing failed: nothing queued, and the synced bookings stay as they are', async () => {
    const uid = await booked(who.cara, CARA_CALL, 10);
    await step();
    expect((await resync(who.cara, {})).outcome).toEqual({ status: 202, data: { queued: 0, remaining: 0 } });
    expect(await syncRow(uid)).toMatchObject({ status: 'synced', generation: 1 });
  });

  it('a manager re-syncs the people they manage (user); anyone else is 403 host_not_allowed, their booking 404 booking_not_found', async () => {
    const [caraUid] = await failedBookings(who.cara, CARA_CALL, [10]);
    const [eveUid] = await failedBookings(who.eve, EVE_CALL, [10]);

    expect((await resync(who.mia, { user: 'cara' })).outcome).toEqual({ status: 202, data: { queued: 1, remaining: 0 } });
    expect(await syncRow(caraUid!)).toMatchObject({ status: 'pending' });
    expect(await scheduleErrorOf(resync(who.mia, { user: EVE }))).toEqual({
      code: 'host_not_allowed',
      message: 'user is not someone this caller may act for.',
      details: { fields: ['user'] },
      retryAfterSeconds: undefined,
    });
    expect(await scheduleErrorOf(resync(who.cara, { booking_uid: eveUid }))).toMatchObject({
      code: 'booking_not_found',
      details: { uid: eveUid },
    });
    expect(await syncRow(eveUid!)).toMatchObject({ status: 'failed' });
  });

  it('refuses both booking_uid and user (400 validation_error), a uid that is no booking (404), and a token without calendars:write (403)', async () => {
    const uid = await booked(who.cara, CARA_CALL, 10);
    expect(await scheduleErrorOf(resync(who.cara, { booking_uid: uid, user: 'cara' }))).toEqual({
      code: 'validation_error',
      message: 'user: give booking_uid or user, not both',
      details: { fields: ['user'] },
      retryAfterSeconds: undefined,
    });
    expect(await scheduleErrorOf(resync(who.cara, { booking_uid: 'not-a-uid' }))).toMatchObject({ code: 'booking_not_found' });
    expect(await scheduleErrorOf(resync(who.cara, { booking_uid: 7 }))).toMatchObject({
      code: 'validation_error',
      details: { fields: ['booking_uid'] },
    });
    expect(await scheduleErrorOf(resync(who.cara, 'everything'))).toMatchObject({ code: 'validation_error' });
    expect(await scheduleErrorOf(resync(who.caraBookings, { booking_uid: uid }))).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scope: 'calendars:write' },
    });
  });

  it('a repeat with the same Idempotency-Key answers the first call again and queues nothing more', async () => {
    const [uid] = await failedBookings(who.cara, CARA_CALL, [10]);
    const first = await resync(who.cara, {}, 'resync-1');
    const generation = (await syncRow(uid!)).generation;
    const again = await resync(who.cara, {}, 'resync-1');
    expect(again.outcome).toEqual(first.outcome);
    expect((await syncRow(uid!)).generation).toBe(generation);
  });

  it('queues at most a batch per call, oldest failure first, and says how many are left', async () => {
    const uids: string[] = [];
    for (const hour of [10, 11, 12]) {
      uids.push(...(await failedBookings(who.cara, CARA_CALL, [hour])));
      clock.advance(1000);
    }
    const pending = async () =>
      (await store.db.selectFrom('calendar_syncs').select('booking_uid').where('status', '=', 'pending').execute()).map(
        (r) => r.booking_uid,
      );
    expect(await store.db.transaction().execute((trx) => resyncFailed(trx, clock, CARA, 2))).toEqual({ queued: 2, remaining: 1 });
    expect((await pending()).sort()).toEqual(uids.slice(0, 2).sort());
    expect(await store.db.transaction().execute((trx) => resyncFailed(trx, clock, CARA, 2))).toEqual({ queued: 1, remaining: 0 });
    expect((await pending()).sort()).toEqual([...uids].sort());
  });
});
