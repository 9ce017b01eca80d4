import { join } from 'node:path';
import { openStore } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createBooking } from './support/booking-writes.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 35: two `schedule serve` processes on one database, 1,000 creates
// each at once on a 20-host round-robin type, all for the same three starts.
// Each start can take one booking per host: exactly 60 are acknowledged, no
// host is booked twice at once, and every acknowledged booking is stored
// exactly once. Only the hosts' locks, taken together in one order in each
// process's transaction, keep them apart.

const HOSTS = 20;
const CREATES = 1000;
const IN_FLIGHT = 25;
const TOKEN = 'teams-multi-process-owner';
const TEAM = 'd5e00000-0000-4000-8000-000000000001';
const always = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]));

const workspace = {
  organization: { name: 'Team Racing Org' },
  limits: { pat_per_minute: 100_000 },
  users: [
    { username: 'boss', email: 'boss@racing.test', timezone: 'UTC', role: 'owner' },
    ...Array.from({ length: HOSTS }, (_, i) => ({
      username: `rr${i}`,
      email: `rr${i}@racing.test`,
      timezone: 'UTC',
      schedule: { timezone: 'UTC', weekly: always },
    })),
  ],
  event_types: [
    {
      id: TEAM,
      owner: 'boss',
      slug: 'team',
      name: 'Team',
      duration_minutes: 60,
      minimum_notice_minutes: 0,
      scheduling: 'round_robin',
      hosts: Array.from({ length: HOSTS }, (_, i) => ({ username: `rr${i}`, weight: 1 + (i % 3) })),
    },
  ],
  tokens: [{ name: 'boss', user: 'boss', secret: TOKEN, scopes: [...ALL_SCOPES] }],
};

/** `CREATES` creates through one server, IN_FLIGHT at a time: each one's status and, when acknowledged, uid. */
async function fire(server: ServerProcess, bodyOf: (i: number) => unknown): Promise<{ status: number; uid?: string }[]> {
  const answers: { status: number; uid?: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < CREATES) {
      const i = next++;
      const res = await createBooking(server.url, TOKEN, bodyOf(i));
      answers.push({ status: res.status, ...(res.status === 201 ? { uid: (res.body as { data: { uid: string } }).data.uid } : {}) });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return answers;
}

describe.each([
  ['one PostgreSQL schema', 'postgres'],
  ['one SQLite file', 'sqlite'],
] as const)('two processes racing on a 20-host round-robin type, %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let db: string;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
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

  it(`2 × ${CREATES} creates on three starts: 60 bookings, none double, each acknowledged one stored once`, async () => {
    const starts = [isoAt(3, 10), isoAt(3, 11), isoAt(3, 12)];
    const body = (who: string) => (i: number) => bookingBody(TEAM, starts[i % 3]!, `${who}${i}@example.com`);
    const answers = (await Promise.all([fire(one, body('a')), fire(two, body('b'))])).flat();
    const statuses = Object.fromEntries([201, 409].map((s) => [s, answers.filter((a) => a.status === s).length]));
    expect(statuses).toEqual({ 201: HOSTS * 3, 409: 2 * CREATES - HOSTS * 3 });
    const store = await openStore(db);
    try {
      const rows = await store.db
        .selectFrom('bookings')
        .select(['uid', 'host_user_id', 'start_at'])
        .where('event_type_id', '=', TEAM)
        .execute();
      const acknowledged = answers.flatMap((a) => (a.uid === undefined ? [] : [a.uid])).sort();
      expect(rows.map((r) => r.uid).sort()).toEqual(acknowledged);
      // One booking per host and start: a host booked twice at a start would show as a repeated pair.
      const pairs = new Set(rows.map((r) => `${r.host_user_id} ${r.start_at}`));
      expect(pairs.size).toBe(rows.length);
      expect(new Set(rows.map((r) => r.host_user_id)).size).toBe(HOSTS);
    } finally {
      await store.close();
    }
  }, 300_000);
});
