import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { createBooking } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { StatementCounter } from './support/statement-counter.js';
import { storeFixtures } from './support/stores.js';

// Every statement of a create is a round trip to PostgreSQL that costs both
// processes CPU (README "Benchmarks"): a change that adds one should be seen
// and meant. Counted here through a Kysely plugin, which sees each statement
// run through the executor, built or prepared; `begin` and `commit` go
// through the driver and are not counted.

// PostgreSQL: the key's claim, the event type (with the attendee-mail switches),
// the host's time off across the slot (docs/api/time-off.md: busy time, read
// with the calendars), the host's lock, one statement that checks the slot
// (the host's bookings and others' live holds, issue 34) and writes the
// booking, its event and its mail, and the key's completion. SQLite runs in
// process and reads the bookings and the holds, then writes those three, one
// by one (issue 34 added the holds' read: 8 before).
const STATEMENTS_PER_CREATE: Record<string, number> = { postgres: 6, sqlite: 9 };

describe.each(storeFixtures())('statements of one create, $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it(`runs ${JSON.stringify(STATEMENTS_PER_CREATE)} statements besides begin and commit`, async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await loadBookingWorkspace({ store, clock });
    const principal = await principalOf({ store, clock }, TOKEN.hana);
    const counter = new StatementCounter();
    const counted: Store = { ...store, db: store.db.withPlugin(counter) };
    const body = (start: string) => ({ event_type_id: ET.meet, start, attendee: { email: 'pat@example.com' } });

    // The first create of a process also compiles its prepared statements; count the second.
    await createBooking(testDeps(counted, clock), principal, body('2026-03-02T10:00:00Z'), 'key-1');
    counter.count = 0;
    const created = await createBooking(testDeps(counted, clock), principal, body('2026-03-02T11:00:00Z'), 'key-2');

    expect(created.outcome.status).toBe(201);
    expect(counter.count).toBe(STATEMENTS_PER_CREATE[fixture.name]);
  });
});
