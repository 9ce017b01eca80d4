import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreateBookingBody } from '../src/bookings/booking-input.js';
import { insertBooking, prepareBooking } from '../src/bookings/create-booking.js';
import { manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';

// Issue 35, one interleaving told step by step: two Stores on one PostgreSQL
// database (two processes) create on a round-robin type at one start, both
// having found every host free and both preferring the same host by the rule.
// The first is held inside its transaction after its insert; the second must
// then wait for the hosts' locks (seen in pg_locks, never slept for), and once
// the first commits it must book the next host, not the same one again. And a
// collective create against a create for one of its hosts alone, each way
// round: whichever writes second waits for that host's lock and is refused.

const T0 = '2026-03-01T08:00:00.000Z';
const START = '2026-03-02T10:00:00.000Z';
const TEAM = '7e500000-0000-4000-8000-000000000001';
const TOGETHER = '7e500000-0000-4000-8000-000000000002';
const BEN_OWN = '7e500000-0000-4000-8000-000000000003';
const TOKEN = 'pat_teams_race_owner';
const always = { mon: [['00:00', '24:00']] };
const twoPostgresStores = sharedDatabases().filter((shared) => shared.name === 'postgres');

function writeDepsOf(store: Store, clock: ReturnType<typeof manualClock>) {
  const deps = testDeps(store, clock);
  return { db: store.db, dialect: store.dialect, clock, ids: deps.ids, calendars: deps.calendars, conferenceLinks: deps.conferenceLinks };
}

/** Whether `write` is waiting on a lock (seen in pg_locks, polled each turn of the loop, never slept for) or ended first. */
async function waitingOrDone(store: Store, write: Promise<unknown>): Promise<'waiting' | 'done'> {
  const done = write.then(
    () => 'done' as const,
    () => 'done' as const,
  );
  const waiting = (async () => {
    for (;;) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted`.execute(store.db);
      if (rows[0]!.n > 0) return 'waiting' as const;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return Promise.race([done, waiting]);
}

describe.each(twoPostgresStores)('two round-robin creates interleaved on one $name database', (shared) => {
  afterAll(() => shared.cleanup());

  it('the second waits for the hosts the first locked, then books the next host (or, against a collective create, is refused)', async () => {
    const [first, second] = await shared.open();
    const clock = manualClock(T0);
    await loadWorkspace(
      { store: first, clock, ids: testDeps(first, clock).ids },
      parseWorkspace(
        JSON.stringify({
          users: [
            { username: 'boss', email: 'boss@example.test', role: 'owner' },
            { username: 'ana', email: 'ana@example.test', timezone: 'UTC', schedule: { timezone: 'UTC', weekly: always } },
            { username: 'ben', email: 'ben@example.test', timezone: 'UTC', schedule: { timezone: 'UTC', weekly: always } },
          ],
          event_types: [
            {
              id: TEAM,
              owner: 'boss',
              slug: 'team',
              name: 'Team',
              duration_minutes: 30,
              minimum_notice_minutes: 0,
              scheduling: 'round_robin',
              hosts: [{ username: 'ana' }, { username: 'ben' }],
            },
            {
              id: TOGETHER,
              owner: 'boss',
              slug: 'together',
              name: 'Together',
              duration_minutes: 30,
              minimum_notice_minutes: 0,
              scheduling: 'collective',
              hosts: [{ username: 'ana' }, { username: 'ben' }],
            },
            { id: BEN_OWN, owner: 'ben', slug: 'own', name: 'Own', duration_minutes: 30, minimum_notice_minutes: 0 },
          ],
          tokens: [{ name: 'boss', user: 'boss', secret: TOKEN, scopes: ['bookings:create'] }],
        }),
      ),
    );
    const boss = await principalOf({ store: first, clock }, TOKEN);
    const body = (email: string) =>
      ({ event_type_id: TEAM, start: START, attendee: { email, sms_opt_in: false }, guests: [], metadata: {} }) as CreateBookingBody;
    const one = writeDepsOf(first, clock);
    const two = writeDepsOf(second, clock);
    // Both read the pool free before either writes.
    const [prepared1, prepared2] = await Promise.all([
      prepareBooking(one, boss, body('a@example.com')),
      prepareBooking(two, boss, body('b@example.com')),
    ]);
    expect([prepared1.team?.length, prepared2.team?.length]).toEqual([2, 2]);

    let secondBooked: Promise<{ host: { username: string } }> | undefined;
    let secondDoneFirst = false;
    const firstBooking = await first.db.transaction().execute(async (trx) => {
      const booking = await insertBooking(trx, one, body('a@example.com'), prepared1);
      secondBooked = second.db.transaction().execute((trx2) => insertBooking(trx2, two, body('b@example.com'), prepared2));
      // Step: the second is waiting on a lock, or (were the hosts not locked) already done.
      secondDoneFirst = (await waitingOrDone(second, secondBooked)) === 'done';
      return booking;
    });
    const secondBooking = await secondBooked!;
    expect({ secondDoneFirst, hosts: [firstBooking.host.username, secondBooking.host.username] }).toEqual({
      secondDoneFirst: false,
      hosts: ['ana', 'ben'],
    });
    const rows = await second.db.selectFrom('bookings').select('host_user_id').where('event_type_id', '=', TEAM).execute();
    expect(new Set(rows.map((r) => r.host_user_id)).size).toBe(2);

    // A collective create and ben's own create at another start, each way round.
    for (const [k, order] of [
      [1, [TOGETHER, BEN_OWN]],
      [2, [BEN_OWN, TOGETHER]],
    ] as const) {
      const at = `2026-03-02T1${k + 1}:00:00.000Z`;
      const bodyOf = (eventTypeId: string) =>
        ({
          event_type_id: eventTypeId,
          start: at,
          attendee: { email: `${k}@example.com`, sms_opt_in: false },
          guests: [],
          metadata: {},
        }) as CreateBookingBody;
      const [p1, p2] = await Promise.all([prepareBooking(one, boss, bodyOf(order[0])), prepareBooking(two, boss, bodyOf(order[1]))]);
      let later: Promise<unknown> | undefined;
      let laterDoneFirst = false;
      await first.db.transaction().execute(async (trx) => {
        await insertBooking(trx, one, bodyOf(order[0]), p1);
        later = second.db.transaction().execute((trx2) => insertBooking(trx2, two, bodyOf(order[1]), p2));
        laterDoneFirst = (await waitingOrDone(second, later)) === 'done';
      });
      const outcome = await later!.then(
        () => 'booked',
        (error: { code?: string }) => error.code,
      );
      const benAt = await second.db
        .selectFrom('bookings')
        .select('uid')
        .where('start_at', '=', at)
        .where((eb) =>
          eb.or([
            eb('host_user_id', '=', eb.selectFrom('users').select('id').where('username', '=', 'ben')),
            eb.exists(eb.selectFrom('booking_hosts').select('user_id').whereRef('booking_hosts.booking_uid', '=', 'bookings.uid')),
          ]),
        )
        .execute();
      expect({ order: k, laterDoneFirst, outcome, benBookings: benAt.length }).toEqual({
        order: k,
        laterDoneFirst: false,
        outcome: 'slot_unavailable',
        benBookings: 1,
      });
    }
  });
});
