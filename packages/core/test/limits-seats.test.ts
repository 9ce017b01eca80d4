import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { createSeriesOperation } from '../src/operations/series-operations.js';
import type { Store } from '../src/storage/store.js';
import { exportWorkspace } from '../src/workspace/export-workspace.js';
import { cancelBooking, checkSlot, createBooking, listSlots, rescheduleBooking } from './support/booking-calls.js';
import { ET, type EventTypeChanges, HANA, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { createSeries, pauseSeries, resumeSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// Limits per day and week, and seats (issue 34 part 3): GET /v1/slots,
// GET /v1/slots/check and POST /v1/bookings refuse alike, reschedules and
// series follow, a seated start is one meeting for the host.

const MON = (hhmm: string) => `2026-03-02T${hhmm}:00.000Z`;
const TUE = (hhmm: string) => `2026-03-03T${hhmm}:00.000Z`;
const WED = (hhmm: string) => `2026-03-04T${hhmm}:00.000Z`;
const BUSY = { code: 'slot_unavailable', details: { reason: 'slot_busy' } };

describe.each(storeFixtures())('booking limits and seats on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let n = 0;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
  });
  afterAll(() => fixture.cleanup());

  async function reset(changes: EventTypeChanges) {
    await resetBookingWorkspace({ store, clock }, [], changes);
    hana = await principalOf({ store, clock }, TOKEN.hana);
  }

  const book = async (eventTypeId: string, start: string) =>
    (await createBooking(deps, hana, { event_type_id: eventTypeId, start, attendee: { email: `a${++n}@example.com` } }, `k${n}`)).outcome
      .data as { uid: string };
  const refusal = async (eventTypeId: string, start: string) => {
    const seen = await scheduleErrorOf(
      createBooking(deps, hana, { event_type_id: eventTypeId, start, attendee: { email: 'x@example.com' } }, `r${++n}`),
    );
    return { code: seen.code, details: seen.details };
  };
  const check = async (eventTypeId: string, start: string) =>
    (await checkSlot(deps, hana, { event_type_id: eventTypeId, start })).outcome.data as { available: boolean; reason?: string };
  const slots = async (eventTypeId: string, start: string, end: string) =>
    (
      (await listSlots(deps, hana, { event_type_id: eventTypeId, start, end })).outcome.data as {
        slots: { start: string; seats_left?: number }[];
      }
    ).slots;

  it('the workspace file takes limits and seats, and an export shows them only where set', async () => {
    await reset({ meet: { seats: 3 }, long: { max_bookings_per_day: 2 } });
    const exported = (await exportWorkspace(store.db)) as { event_types: { id: string; [field: string]: unknown }[] };
    const byId = new Map(exported.event_types.map((t) => [t.id, t]));
    expect(byId.get(ET.meet)).toMatchObject({ seats: 3 });
    expect(byId.get(ET.meet)).not.toHaveProperty('max_bookings_per_day');
    expect(byId.get(ET.long)).toMatchObject({ max_bookings_per_day: 2 });
    expect(byId.get(ET.buffered)).not.toHaveProperty('seats');
  });

  /** Hana with the series scopes the booking workspace's token lacks. */
  const seriesWriter = () => ({ ...hana, scopes: new Set([...hana.scopes, 'series:write' as const, 'series:read' as const]) });
  /** A weekly series at 10:00 UTC from Monday 2026-03-02. */
  const weeklyAtTen = (eventTypeId: string, weekdays: string[], count: number) => ({
    host_user_id: HANA,
    event_type_id: eventTypeId,
    attendee: { email: 's@example.com' },
    frequency: 'weekly',
    weekdays,
    time: '10:00',
    starts_on: '2026-03-02',
    count,
  });

  describe('seats', () => {
    beforeEach(() => reset({ meet: { seats: 3 } }));

    it('lists seats left, takes three attendees at one start as three bookings, then the start is slot_busy everywhere', async () => {
      expect((await slots(ET.meet, MON('10:00'), MON('11:00'))).map((s) => [s.start, s.seats_left])).toEqual([
        [MON('10:00'), 3],
        [MON('10:30'), 3],
      ]);
      const uids = [(await book(ET.meet, MON('10:00'))).uid, (await book(ET.meet, MON('10:00'))).uid];
      expect((await slots(ET.meet, MON('10:00'), MON('10:30')))[0]!.seats_left).toBe(1);
      // A seated group is one meeting: the next start of the same type is free apart from it.
      expect((await check(ET.meet, MON('10:30'))).available).toBe(true);
      uids.push((await book(ET.meet, MON('10:00'))).uid);
      expect(new Set(uids).size).toBe(3);
      expect(await slots(ET.meet, MON('10:00'), MON('10:30'))).toEqual([]);
      expect(await check(ET.meet, MON('10:00'))).toMatchObject({ available: false, reason: 'slot_busy' });
      expect(await refusal(ET.meet, MON('10:00'))).toEqual(BUSY);
      // A canceled seat frees it.
      await cancelBooking(deps, hana, uids[0]!, {}, 'c1');
      expect((await slots(ET.meet, MON('10:00'), MON('10:30')))[0]!.seats_left).toBe(1);
      await book(ET.meet, MON('10:00'));
    });

    it('blocks the host for other event types and overlapping starts, buffers around it', async () => {
      await book(ET.meet, MON('10:00'));
      expect(await refusal(ET.long, MON('10:00'))).toEqual(BUSY);
      expect(await refusal(ET.buffered, MON('10:30'))).toEqual(BUSY);
      expect(await check(ET.long, MON('09:30'))).toMatchObject({ available: false, reason: 'slot_busy' });
    });

    it('moves one seat only, to a start with a seat left', async () => {
      const [a] = [await book(ET.meet, MON('10:00')), await book(ET.meet, MON('10:00'))];
      const moved = (await rescheduleBooking(deps, hana, a!.uid, { start: MON('11:00') }, 'm1')).outcome.data as { start_at: string };
      expect(moved.start_at).toBe(MON('11:00'));
      expect((await slots(ET.meet, MON('10:00'), MON('11:30'))).map((s) => s.seats_left)).toEqual([2, 3, 2]);
    });

    it('refuses a series on a seated type: 409 recurring_disabled naming seats', async () => {
      const principal = seriesWriter();
      const body = weeklyAtTen(ET.meet, ['mon'], 2);
      const seen = await scheduleErrorOf(
        execute(deps, createSeriesOperation, principal, { params: {}, query: {}, body, idempotencyKey: 's1' }, 'r'),
      );
      expect({ code: seen.code, details: seen.details }).toEqual({ code: 'recurring_disabled', details: { fields: ['seats'] } });
    });
  });

  describe('limits', () => {
    beforeEach(() => reset({ long: { max_bookings_per_day: 2, max_bookings_per_week: 3 } }));

    it('a reached day limit takes the day off slots, check and create; the next day is open', async () => {
      await book(ET.long, MON('09:00'));
      await book(ET.long, MON('10:00'));
      expect(await slots(ET.long, MON('00:00'), TUE('00:00'))).toEqual([]);
      expect(await check(ET.long, MON('14:00'))).toMatchObject({ available: false, reason: 'slot_busy', next_available: TUE('09:00') });
      expect(await refusal(ET.long, MON('14:00'))).toEqual(BUSY);
      // Other event types of the host are not limited by it.
      expect((await check(ET.meet, MON('14:00'))).available).toBe(true);
      await book(ET.long, TUE('09:00'));
      // The week's limit (3) is reached too.
      expect(await slots(ET.long, WED('00:00'), '2026-03-09T00:00:00.000Z')).toEqual([]);
      expect(await refusal(ET.long, WED('09:00'))).toEqual(BUSY);
      // The next ISO week starts on Monday.
      expect((await check(ET.long, '2026-03-09T09:00:00.000Z')).available).toBe(true);
    });

    it('a move within the same day does not count itself twice; a cancel frees the count', async () => {
      const first = await book(ET.long, MON('09:00'));
      await book(ET.long, MON('10:00'));
      await rescheduleBooking(deps, hana, first.uid, { start: MON('14:00') }, 'm2');
      expect(await check(ET.long, MON('15:00'))).toMatchObject({ available: false, reason: 'slot_busy' });
      await cancelBooking(deps, hana, first.uid, {}, 'c2');
      expect((await check(ET.long, MON('15:00'))).available).toBe(true);
    });

    it('a series skips dates past the limit, counting its own occurrences', async () => {
      await reset({ long: { max_bookings_per_week: 2 } });
      const principal = seriesWriter();
      const body = weeklyAtTen(ET.long, ['mon', 'tue', 'wed'], 3);
      const made = (await execute(deps, createSeriesOperation, principal, { params: {}, query: {}, body, idempotencyKey: 's2' }, 'r'))
        .outcome.data as { occurrences: { start_at: string }[]; skipped: { date: string; reason: string }[] };
      expect(made.occurrences.map((o) => o.start_at)).toEqual([MON('10:00'), TUE('10:00')]);
      expect(made.skipped.map((s) => s.date)).toEqual(['2026-03-04']);
    });

    it('a resumed series counts against the limit: the date that filled up while paused is skipped', async () => {
      await reset({ long: { max_bookings_per_day: 2 } });
      const principal = seriesWriter();
      const body = weeklyAtTen(ET.long, ['mon'], 2);
      const made = (await createSeries(deps, principal, body, { key: 's3' })).outcome.data as { series: { uid: string } };
      await pauseSeries(deps, principal, made.series.uid, { key: 'p3' });
      await book(ET.long, '2026-03-09T09:00:00.000Z');
      await book(ET.long, '2026-03-09T14:00:00.000Z');
      await resumeSeries(deps, principal, made.series.uid, { key: 'r3' });
      const confirmed = await store.db
        .selectFrom('bookings')
        .select('start_at')
        .where('event_type_id', '=', ET.long)
        .where('status', '=', 'confirmed')
        .orderBy('start_at')
        .execute();
      expect(confirmed.map((r) => r.start_at)).toEqual([MON('10:00'), '2026-03-09T09:00:00.000Z', '2026-03-09T14:00:00.000Z']);
    });
  });
});
