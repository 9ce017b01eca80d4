import { afterAll, describe, expect, it } from 'vitest';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { manualClock } from '../src/clock.js';
import { bookingRowsOf, createBooking } from './support/booking-calls.js';
import { ET, HANA, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { createHold, outcomeOf } from './support/hold-calls.js';
import { principalOf } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';

// Issue 34: holds stay exclusive across processes. Two Stores on one
// PostgreSQL database stand for two server processes (SQLite's processes
// are covered by its whole-database write lock; two SQLite Stores in one
// thread cannot wait on each other, as create-booking-race.test.ts says).

const START = '2026-03-02T10:00:00Z';
const twoPostgresStores = sharedDatabases().filter((shared) => shared.name === 'postgres');

describe.each(twoPostgresStores)('holds racing across two Stores on one $name database', (shared) => {
  afterAll(() => shared.cleanup());

  it('gives one start to one of 20 callers holding at once, and racing creates never book over a hold', async () => {
    const [first, second] = await shared.open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store: first, clock });
    const both = [testDeps(first, clock), testDeps(second, clock)];
    const hana = await principalOf({ store: first, clock }, TOKEN.hana);
    const admin = await principalOf({ store: first, clock }, TOKEN.admin);

    // 20 holders (two tokens and 18 visitors of the booking page, each its own holder) hold one start, half per Store: one stands.
    const holders = [
      hana,
      admin,
      ...Array.from({ length: 18 }, (_, i) => visitorPrincipal({ kind: 'book', hostId: HANA, holder: `form-${i}` })),
    ];
    const holds = await Promise.all(
      holders.map((holder, i) => outcomeOf(createHold(both[i % 2]!, holder, { event_type_id: ET.meet, start: START }, `race-hold-${i}`))),
    );
    expect(holds.filter((h) => h === 201)).toHaveLength(1);
    expect(holds.filter((h) => h === 'slot_unavailable')).toHaveLength(19);
    const holderToken = holders[holds.indexOf(201)]!;
    const [held] = await first.db.selectFrom('holds').select('id').execute();
    const other = holderToken === hana ? admin : hana;

    // The holder books with it while the other token fires creates at the same start through both Stores.
    const results = await Promise.all([
      outcomeOf(
        createBooking(
          both[0]!,
          holderToken,
          { event_type_id: ET.meet, start: START, hold_id: held!.id, attendee: { email: 'h@example.com' } },
          'held',
        ),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        outcomeOf(
          createBooking(
            both[i % 2]!,
            other,
            { event_type_id: ET.meet, start: START, attendee: { email: `o${i}@example.com` } },
            `other-${i}`,
          ),
        ),
      ),
    ]);
    expect(results[0]).toBe(201);
    expect(results.slice(1)).toEqual(Array.from({ length: 10 }, () => 'slot_unavailable'));
    expect((await bookingRowsOf(second)).map((r) => [r.start_at, r.status])).toEqual([['2026-03-02T10:00:00.000Z', 'confirmed']]);
    expect(await first.db.selectFrom('holds').select('id').execute()).toEqual([]);
  });
});
