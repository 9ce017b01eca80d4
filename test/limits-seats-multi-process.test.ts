import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createBooking, listSlots } from './support/booking-writes.js';
import { expectData } from './support/http.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 34: two `schedule serve` processes on one database, 500 creates each
// at once: a 5-seat start takes exactly 5 attendees, a type limited to 3 a
// day exactly 3 bookings that day. Only the host's lock, taken in each
// process's own transaction, keeps them apart.

const IDS = {
  hana: 'd4000000-0000-4000-8000-000000000001',
  class: 'd4e00000-0000-4000-8000-000000000001',
  call: 'd4e00000-0000-4000-8000-000000000002',
} as const;
const TOKEN = 'limits-seats-multi-process-hana';
const CREATES = 500;
/** Requests each process has in flight at once. */
const IN_FLIGHT = 25;

const workspace = {
  organization: { name: 'Racing Org' },
  limits: { pat_per_minute: 100_000 },
  users: [
    {
      id: IDS.hana,
      username: 'hana',
      email: 'hana@racing.test',
      name: 'Hana Host',
      timezone: 'UTC',
      role: 'user',
      schedule: {
        timezone: 'UTC',
        weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]])),
      },
    },
  ],
  event_types: [
    { id: IDS.class, owner: 'hana', slug: 'class', name: 'Class', duration_minutes: 60, minimum_notice_minutes: 0, seats: 5 },
    { id: IDS.call, owner: 'hana', slug: 'call', name: 'Call', duration_minutes: 60, minimum_notice_minutes: 0, max_bookings_per_day: 3 },
  ],
  tokens: [{ name: 'hana', user: 'hana', secret: TOKEN, scopes: [...ALL_SCOPES] }],
};

/** `CREATES` creates through one server, IN_FLIGHT at a time; the statuses they answered. */
async function fire(server: ServerProcess, bodyOf: (i: number) => unknown): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < CREATES) {
      const i = next++;
      statuses.push((await createBooking(server.url, TOKEN, bodyOf(i))).status);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return statuses;
}

const tally = (statuses: readonly number[]) => Object.fromEntries([201, 409].map((s) => [s, statuses.filter((x) => x === s).length]));

describe.each([
  ['one PostgreSQL schema', 'postgres'],
  ['one SQLite file', 'sqlite'],
] as const)('two processes racing on limits and seats, %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    let db: string;
    if (backend === 'postgres') {
      schema = testSchema();
      db = schema.dbUrl;
    } else {
      db = join(tempDir('schedule-db-'), 'shared.db');
    }
    const file = writeWorkspace(workspace);
    one = await startServer(['--workspace', file, '--db', db]);
    two = await startServer(['--workspace', file, '--db', db]);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await schema?.drop();
  });

  it(`2 × ${CREATES} creates on a 5-seat start: exactly 5 attendees`, async () => {
    const start = isoAt(3, 10);
    const body = (who: string) => (i: number) => bookingBody(IDS.class, start, `${who}${i}@example.com`);
    const [a, b] = await Promise.all([fire(one, body('a')), fire(two, body('b'))]);
    expect(tally([...a, ...b])).toEqual({ 201: 5, 409: 2 * CREATES - 5 });
    const slots = expectData(await listSlots(one.url, TOKEN, { event_type_id: IDS.class, start, end: isoAt(3, 11) })).slots;
    expect(slots).toEqual([]);
  }, 120_000);

  it(`2 × ${CREATES} creates across a day limited to 3: exactly 3 bookings`, async () => {
    const body = (i: number) => bookingBody(IDS.call, isoAt(4, i % 24), `c${i}@example.com`);
    const [a, b] = await Promise.all([fire(one, body), fire(two, (i) => body(i + 7))]);
    expect(tally([...a, ...b])).toEqual({ 201: 3, 409: 2 * CREATES - 3 });
    expect(expectData(await listSlots(two.url, TOKEN, { event_type_id: IDS.call, start: isoAt(4), end: isoAt(5) })).slots).toEqual([]);
  }, 120_000);
});
