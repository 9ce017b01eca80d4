import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { confirmBookingOperation, declineBookingOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { bookingRowsOf, createBooking } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures } from './support/stores.js';

// Confirm can never double-book (issue 34: Cal.com's confirm action does).
// 100 pending bookings; for each, 10 confirms, one decline and 2 creates for
// the same time race, shuffled, over two writers: 1,000 confirms in all.
// Whatever order they land in, the bookings that hold time never overlap.

const TIMES = 100;
const CONFIRMS = 10;
const CREATES = 2;
const IN_FLIGHT = 6;
const HOURS = [9, 10, 11, 13, 14, 15, 16];

/** The first `TIMES` one-hour starts of hana's office hours from Monday 2026-03-02 (UTC weekdays). */
function starts(): string[] {
  const out: string[] = [];
  for (let day = 0; out.length < TIMES; day++) {
    const date = new Date(Date.UTC(2026, 2, 2 + day));
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    for (const hour of HOURS) if (out.length < TIMES) out.push(new Date(date.getTime() + hour * 3_600_000).toISOString());
  }
  return out;
}

/** A seeded shuffle, so a failing order can be run again. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

type Kind = 'confirm' | 'decline' | 'create';

async function race(writers: readonly ExecuteDeps[], store: Store) {
  const hana: Principal = await principalOf({ store, clock: manualClock(T0) }, TOKEN.hana);
  const body = (start: string, email: string) => ({ event_type_id: ET.long, start, attendee: { email } });
  const pending: { uid: string; start: string }[] = [];
  for (const [i, start] of starts().entries()) {
    const { outcome } = await createBooking(writers[0]!, hana, body(start, `first${i}@example.com`), `setup-${i}`);
    pending.push({ uid: (outcome.data as { uid: string }).uid, start });
  }
  let n = 0;
  const calls: { kind: Kind; uid: string; run: (deps: ExecuteDeps) => Promise<unknown> }[] = [];
  for (const { uid, start } of pending) {
    const call = (operation: typeof confirmBookingOperation | typeof declineBookingOperation) => (deps: ExecuteDeps) =>
      execute(deps, operation, hana, { params: { uid }, query: {}, body: undefined, idempotencyKey: `k-${++n}` }, 'req');
    for (let i = 0; i < CONFIRMS; i++) calls.push({ kind: 'confirm', uid, run: call(confirmBookingOperation) });
    calls.push({ kind: 'decline', uid, run: call(declineBookingOperation) });
    for (let i = 0; i < CREATES; i++) {
      const email = `racer${++n}@example.com`;
      calls.push({ kind: 'create', uid, run: (deps) => createBooking(deps, hana, body(start, email), `k-${email}`) });
    }
  }
  const order = shuffled(calls, 34);
  // A few calls in flight per writer at any time, as a server's pool allows; more only queue for a connection.
  const settled: PromiseSettledResult<unknown>[] = new Array(order.length);
  let taken = 0;
  const worker = async (deps: ExecuteDeps) => {
    while (taken < order.length) {
      const i = taken++;
      settled[i] = await order[i]!.run(deps).then(
        (value) => ({ status: 'fulfilled' as const, value }),
        (reason: unknown) => ({ status: 'rejected' as const, reason }),
      );
    }
  };
  await Promise.all(writers.flatMap((deps) => Array.from({ length: IN_FLIGHT }, () => worker(deps))));
  const won = { confirm: 0, decline: 0, create: 0 };
  const refusals = new Set<string>();
  const answered = new Map<string, number>();
  for (const [i, result] of settled.entries()) {
    const { kind, uid } = order[i]!;
    if (result.status === 'fulfilled') {
      won[kind]++;
      if (kind !== 'create') answered.set(uid, (answered.get(uid) ?? 0) + 1);
    } else {
      refusals.add(`${kind} ${(await scheduleErrorOf(Promise.reject(result.reason))).code}`);
    }
  }
  return { won, refusals: [...refusals].sort(), answeredTwice: [...answered.values()].filter((count) => count !== 1).length };
}

/** Pairs of bookings that hold time (confirmed or pending) and overlap: a double booking. */
async function doubleBookings(store: Store): Promise<string[][]> {
  const holding = (await bookingRowsOf(store)).filter((r) => r.status === 'confirmed' || r.status === 'pending');
  const pairs: string[][] = [];
  for (let i = 1; i < holding.length; i++) {
    const [a, b] = [holding[i - 1]!, holding[i]!];
    if (a.host_user_id === b.host_user_id && Date.parse(b.start_at) < Date.parse(a.end_at)) pairs.push([a.uid, b.uid]);
  }
  return pairs;
}

async function expectNoDoubleBooking(writers: readonly ExecuteDeps[], store: Store) {
  const { won, refusals, answeredTwice } = await race(writers, store);
  // Each pending booking is answered exactly once; a create wins only a time its decline freed.
  expect(won.confirm + won.decline).toBe(TIMES);
  expect(answeredTwice).toBe(0);
  expect(won.create).toBeLessThanOrEqual(won.decline);
  expect(refusals.every((r) => ['confirm booking_not_pending', 'decline booking_not_pending', 'create slot_unavailable'].includes(r))).toBe(
    true,
  );
  expect(await doubleBookings(store)).toEqual([]);
  const rows = await bookingRowsOf(store);
  expect(rows.filter((r) => r.status === 'confirmed')).toHaveLength(won.confirm);
  expect(rows.filter((r) => r.status === 'declined')).toHaveLength(won.decline);
}

const CHANGES = { long: { requires_confirmation: true } };

describe.each(storeFixtures().filter((f) => f.name === 'sqlite'))(
  '1,000 confirms racing creates, two writers on one $name Store',
  (fixture) => {
    afterAll(() => fixture.cleanup());

    it('never double-books', async () => {
      const store = await fixture.open();
      const clock = manualClock(T0);
      await loadBookingWorkspace({ store, clock }, [], CHANGES);
      await expectNoDoubleBooking([testDeps(store, clock), testDeps(store, clock)], store);
    }, 60_000);
  },
);

// Two SQLite Stores in one process cannot wait on each other (create-booking-race.test.ts), so the
// two-process race runs on PostgreSQL: two pools on one database, as two servers hold them.
describe.each(sharedDatabases().filter((shared) => shared.name === 'postgres'))(
  '1,000 confirms racing creates on two Stores sharing one $name database',
  (shared) => {
    afterAll(() => shared.cleanup());

    it('never double-books', async () => {
      const [first, second] = await shared.open();
      const clock = manualClock(T0);
      await loadBookingWorkspace({ store: first, clock }, [], CHANGES);
      await expectNoDoubleBooking([testDeps(first, clock), testDeps(second, clock)], first);
    }, 60_000);
  },
);
