import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { bookingRowsOf, createBooking, outboxOf } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { type SeenError, scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures } from './support/stores.js';

// Double booking must be impossible however creates for one slot interleave:
// in one process (one Store), and across processes (two Stores, one database).

const START = '2026-03-02T10:00:00Z';
const bodyFor = (i: number) => ({ event_type_id: ET.meet, start: START, attendee: { email: `p${i}@example.com` } });

/** Fires 10 creates for one slot at once, spread over the given deps, each with its own key. */
async function race(depsList: readonly ExecuteDeps[], store: Store) {
  const principal = await principalOf({ store, clock: manualClock(T0) }, TOKEN.hana);
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) => createBooking(depsList[i % depsList.length]!, principal, bodyFor(i), `key-${i}`)),
  );
  const lost: SeenError[] = [];
  for (const r of results) if (r.status === 'rejected') lost.push(await scheduleErrorOf(Promise.reject(r.reason)));
  return { won: results.filter((r) => r.status === 'fulfilled').length, lost };
}

const NINE_LOSERS = Array.from({ length: 9 }, () => ({
  code: 'slot_unavailable',
  message: 'The host is not free at this time.',
  details: { reason: 'slot_busy' },
  retryAfterSeconds: undefined,
}));

// The losers' mail is written with their bookings or not at all: only the winner's two are queued.
const WINNERS_MAIL = [
  { kind: 'booking_created', role: 'attendee' },
  { kind: 'booking_created', role: 'host' },
];

async function mailOf(store: Store) {
  const rows = await store.db.selectFrom('notifications').select(['kind', 'payload_json']).execute();
  return rows
    .map((r) => ({ kind: r.kind, role: (JSON.parse(r.payload_json) as { role: string }).role }))
    .sort((a, b) => a.role.localeCompare(b.role));
}

describe.each(storeFixtures())('simultaneous creates on one Store, $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it('lets exactly one of 10 creates for one slot win; the other 9 are slot_unavailable', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store, clock });
    expect(await race([testDeps(store, clock)], store)).toEqual({ won: 1, lost: NINE_LOSERS });
    expect((await bookingRowsOf(store)).map((r) => [r.start_at, r.status])).toEqual([['2026-03-02T10:00:00.000Z', 'confirmed']]);
    expect((await outboxOf(store)).map((e) => e.event_type)).toEqual(['booking.created']);
    expect(await mailOf(store)).toEqual(WINNERS_MAIL);
  });
});

// PostgreSQL only: two better-sqlite3 connections in one thread cannot wait on
// each other (the busy handler sleeps the only thread that could release the
// lock), so two SQLite Stores in one process stall for the busy timeout and
// answer slot_lock_timeout. Separate processes each have their own thread,
// which is what SQLite's BEGIN IMMEDIATE relies on.
const twoPostgresStores = sharedDatabases().filter((shared) => shared.name === 'postgres');

describe.each(twoPostgresStores)('simultaneous creates on two Stores sharing one $name database', (shared) => {
  afterAll(() => shared.cleanup());

  it('lets exactly one of 10 creates for one slot win across both Stores', async () => {
    const [first, second] = await shared.open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store: first, clock });
    expect(await race([testDeps(first, clock), testDeps(second, clock)], first)).toEqual({ won: 1, lost: NINE_LOSERS });
    expect((await bookingRowsOf(second)).map((r) => [r.start_at, r.status])).toEqual([['2026-03-02T10:00:00.000Z', 'confirmed']]);
    expect((await outboxOf(first)).map((e) => e.event_type)).toEqual(['booking.created']);
    expect(await mailOf(first)).toEqual(WINNERS_MAIL);
  });
});
