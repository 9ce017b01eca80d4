import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createBooking, rescheduleBooking } from './support/booking-writes.js';
import { type ApiResponse, expectData, expectError } from './support/http.js';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { isoAt } from './support/slot-time.js';
import { type StoredBookings, type TestDatabase, testDatabase } from './support/stored-bookings.js';
import { ALL_SCOPES } from './support/workspace.js';

// Two `schedule serve` processes on one database: however many writers race
// for one slot, across processes, the host is booked once (docs/api
// "slot_unavailable", "slot_lock_timeout"). Checked in the answers and in the
// stored rows.

const HOST_ID = 'd5000000-0000-4000-8000-000000000001';
const EVENT_TYPE_ID = 'd5e00000-0000-4000-8000-000000000001';
const TOKEN = 'race-secret-rex-all-scopes';
const RACERS = 50;
const ROUNDS = 6;

const workspace = {
  organization: { name: 'Race Org' },
  limits: { pat_per_minute: 10_000 },
  users: [{ id: HOST_ID, username: 'rex', email: 'rex@race.test', name: 'Rex Host', timezone: 'UTC', role: 'owner' }],
  event_types: [
    { id: EVENT_TYPE_ID, owner: 'rex', slug: 'race', name: 'Race', duration_minutes: 30, minimum_notice_minutes: 0, future_limit_days: 60 },
  ],
  tokens: [{ name: 'rex', user: 'rex', secret: TOKEN, scopes: [...ALL_SCOPES] }],
};

/** A loser of a race for a slot: it was taken, or the slot's lock was not had in time. */
function expectLoser(res: ApiResponse): void {
  if (res.status === 503) {
    expectError(res, 503, 'slot_lock_timeout', {});
    expect(res.headers.get('retry-after')).toBe('1');
    return;
  }
  expectError(res, 409, 'slot_unavailable', { reason: 'slot_busy' });
}

const summary = (answers: readonly ApiResponse[]) => answers.map((r) => `${r.status} ${r.body?.error?.code ?? ''}`).join(', ');

describe.each([
  ['one PostgreSQL schema', 'postgres'],
  ['one SQLite file', 'sqlite'],
] as const)('two processes on %s', (_, backend) => {
  let database: TestDatabase | undefined;
  let stored: StoredBookings;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    database = testDatabase(backend);
    const { db } = database;
    stored = database.stored;
    const file = writeWorkspace(workspace);
    // One after the other: the first creates and migrates the database, the second finds it ready.
    one = await startServer(['--workspace', file, '--db', db]);
    two = await startServer(['--workspace', file, '--db', db]);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await database?.drop();
  });

  const serverOf = (i: number) => (i % 2 === 0 ? one : two);

  it(`${RACERS} concurrent creates for one slot, alternating processes: exactly one is booked`, async () => {
    const slot = isoAt(3, 10);
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        createBooking(serverOf(i).url, TOKEN, bookingBody(EVENT_TYPE_ID, slot, `racer${i}@example.com`)),
      ),
    );
    const won = answers.filter((r) => r.status === 201);
    expect(won, summary(answers)).toHaveLength(1);
    const booking = expectData(won[0]!, 201);
    expect(booking).toMatchObject({ status: 'confirmed', start_at: slot, end_at: isoAt(3, 10, 30) });
    for (const res of answers) if (res !== won[0]) expectLoser(res);

    const rows = await stored.ofHost(HOST_ID);
    expect(rows.filter((r) => r.start_at === slot)).toEqual([
      { uid: booking.uid, status: 'confirmed', start_at: slot, end_at: isoAt(3, 10, 30) },
    ]);
    expect(await stored.overlaps(HOST_ID)).toEqual([]);
  });

  it('a reschedule racing a create for the same free slot: never both, never an overlap', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const target = isoAt(4, 8 + round);
      const origin = isoAt(5, 8 + round);
      const moving = expectData(await createBooking(one.url, TOKEN, bookingBody(EVENT_TYPE_ID, origin, `mover${round}@example.com`)), 201);
      // Alternate which process gets which request, and which is sent first.
      const [mover, creator] = round % 2 === 0 ? [one, two] : [two, one];
      const move = () => rescheduleBooking(mover.url, TOKEN, moving.uid, { start: target });
      const make = () => createBooking(creator.url, TOKEN, bookingBody(EVENT_TYPE_ID, target, `creator${round}@example.com`));
      const [moved, made] = round % 4 < 2 ? await Promise.all([move(), make()]) : (await Promise.all([make(), move()])).reverse();

      const context = `round ${round}: reschedule ${moved!.status} ${moved!.text.slice(0, 120)} | create ${made!.status} ${made!.text.slice(0, 120)}`;
      const successes = [moved!.status === 200, made!.status === 201].filter(Boolean);
      expect(successes, context).toHaveLength(1);
      const rows = await stored.ofHost(HOST_ID);
      const atTarget = rows.filter((r) => r.start_at === target && r.status === 'confirmed');
      if (moved!.status === 200) {
        expect(expectData(moved!)).toMatchObject({ uid: moving.uid, start_at: target, version: 2 });
        expectLoser(made!);
        expect(atTarget.map((r) => r.uid)).toEqual([moving.uid]);
        expect(rows.filter((r) => r.start_at === origin)).toEqual([]);
      } else {
        const created = expectData(made!, 201);
        expectLoser(moved!);
        expect(atTarget.map((r) => r.uid)).toEqual([created.uid]);
        expect(rows.filter((r) => r.start_at === origin).map((r) => r.uid)).toEqual([moving.uid]);
      }
      expect(await stored.overlaps(HOST_ID), context).toEqual([]);
    }
  });
});
