import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { createBooking } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures } from './support/stores.js';

// Issue 34: limits and seats hold under racing creates. Two writers, 500
// creates each, all at once: on a 5-seat start exactly 5 attendees, on a
// 3-per-day limit exactly 3 bookings. On PostgreSQL the writers are two
// Stores (two pools) on one database, so the host's lock is what keeps them
// apart; on SQLite one Store (two Stores in one thread cannot wait on each
// other, see create-booking-race.test.ts).

const CREATES = 500;
const SEATED = '2026-03-02T10:00:00Z';
// The 60-minute type's starts on Monday: 09:00–11:00 and 13:00–16:00.
const LIMITED = ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'].map((t) => `2026-03-02T${t}:00Z`);

async function race(depsList: readonly ExecuteDeps[], store: Store, bodyOf: (i: number) => unknown) {
  const principal = await principalOf({ store, clock: manualClock(T0) }, TOKEN.hana);
  const results = await Promise.allSettled(
    Array.from({ length: 2 * CREATES }, (_, i) => createBooking(depsList[i % depsList.length]!, principal, bodyOf(i), `key-${i}`)),
  );
  const codes = new Map<string, number>();
  for (const r of results) {
    if (r.status === 'fulfilled') continue;
    const seen = await scheduleErrorOf(Promise.reject(r.reason));
    const key = `${seen.code}:${(seen.details as { reason?: string }).reason}`;
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }
  return { won: results.filter((r) => r.status === 'fulfilled').length, lost: Object.fromEntries(codes) };
}

const seatedBody = (i: number) => ({ event_type_id: ET.meet, start: SEATED, attendee: { email: `p${i}@example.com` } });
const limitedBody = (i: number) => ({
  event_type_id: ET.long,
  start: LIMITED[i % LIMITED.length],
  attendee: { email: `p${i}@example.com` },
});

async function confirmedOf(store: Store, eventTypeId: string) {
  return store.db
    .selectFrom('bookings')
    .select(['start_at'])
    .where('event_type_id', '=', eventTypeId)
    .where('status', '=', 'confirmed')
    .execute();
}

function writersOn(open: () => Promise<readonly Store[]>, cleanup: () => Promise<void>) {
  afterAll(cleanup);

  it(`takes exactly 5 of 2 × ${CREATES} creates on a 5-seat start`, async () => {
    const stores = await open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store: stores[0]!, clock }, [], { meet: { seats: 5 } });
    const outcome = await race(
      stores.map((s) => testDeps(s, clock)),
      stores[0]!,
      seatedBody,
    );
    expect(outcome).toEqual({ won: 5, lost: { 'slot_unavailable:slot_busy': 2 * CREATES - 5 } });
    expect((await confirmedOf(stores.at(-1)!, ET.meet)).length).toBe(5);
  }, 60_000);

  it(`takes exactly 3 of 2 × ${CREATES} creates across a day with a limit of 3`, async () => {
    const stores = await open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store: stores[0]!, clock }, [], { long: { max_bookings_per_day: 3 } });
    const outcome = await race(
      stores.map((s) => testDeps(s, clock)),
      stores[0]!,
      limitedBody,
    );
    expect(outcome).toEqual({ won: 3, lost: { 'slot_unavailable:slot_busy': 2 * CREATES - 3 } });
    expect(new Set((await confirmedOf(stores.at(-1)!, ET.long)).map((r) => r.start_at)).size).toBe(3);
  }, 60_000);
}

describe.each(storeFixtures().filter((f) => f.name === 'sqlite'))('racing writers on one $name Store', (fixture) => {
  writersOn(
    async () => [await fixture.open()],
    () => fixture.cleanup(),
  );
});

describe.each(sharedDatabases().filter((shared) => shared.name === 'postgres'))(
  'racing writers on two Stores sharing one $name database',
  (shared) => {
    writersOn(
      () => shared.open(),
      () => shared.cleanup(),
    );
  },
);
