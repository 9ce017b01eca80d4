import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { createHold } from './support/hold-calls.js';
import { principalOf } from './support/organization.js';
import { StatementCounter } from './support/statement-counter.js';
import { storeFixtures } from './support/stores.js';

// A hold is the first of two calls that book (issue 34's bench holds both to
// 1.6x one create), so its statements are counted as a create's are
// (create-booking-statements.test.ts). PostgreSQL: the key's claim, the event
// type, the host's time off, the host's lock, one statement that tidies,
// checks and inserts, and the key's completion; a fast path that failed
// would fall back to the separate checks and show here. SQLite runs the
// tidy, the cap, the bookings, the holds and the insert one by one.
const STATEMENTS_PER_HOLD: Record<string, number> = { postgres: 6, sqlite: 9 };

describe.each(storeFixtures())('statements of one hold, $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it(`runs ${JSON.stringify(STATEMENTS_PER_HOLD)} statements besides begin and commit`, async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store, clock });
    const principal = await principalOf({ store, clock }, TOKEN.hana);
    const counter = new StatementCounter();
    const counted: Store = { ...store, db: store.db.withPlugin(counter) };
    const body = (start: string) => ({ event_type_id: ET.meet, start });
    // The first hold of a process also compiles its prepared statements; count the second.
    await createHold(testDeps(counted, clock), principal, body('2026-03-02T10:00:00Z'), 'key-1');
    counter.count = 0;
    const held = await createHold(testDeps(counted, clock), principal, body('2026-03-02T11:00:00Z'), 'key-2');
    expect(held.outcome.status).toBe(201);
    expect(counter.count).toBe(STATEMENTS_PER_HOLD[fixture.name]);
  });
});
