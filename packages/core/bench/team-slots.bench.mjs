// Benchmark of issue 35: a 31-day slot list of a round-robin type whose
// pool's hosts each have 2,000 bookings and 500 busy ranges (time off), for
// pools of 10, 50, 200 and 500 hosts, against the same list for one of those
// hosts' own type (the single-host floor), measured in the same run,
// interleaved. Targets: p50 at most 25 ms for 50 hosts and 250 ms for 500.
// The core call (execute of list_slots, database reads included) is timed on
// SQLite. Where the time goes is reported from one profiled list per size.
// The same pools as collective types (every host must be free) are reported
// beside them: their slots are each host's in turn, narrowed as they go.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyOf } from '../dist/availability/load-host-time.js';
import { loadTeamTime, teamFreeSlots } from '../dist/availability/team-time.js';
import { eventTypeById } from '../dist/event-types/resolve-event-type.js';
import * as core from '../dist/index.js';
import { benchDeps, percentiles, timedSlots, writeReport } from './support.mjs';

const SIZES = (process.env.BENCH_TEAM_SIZES ?? '10,50,200,500').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const TARGETS = { 50: 25, 500: 250 };
const BOOKINGS_PER_HOST = 2000;
const BUSY_PER_HOST = 500;
const MIN = 60_000;
const DAY = 86_400_000;
const secret = 'pat_bench_team_slots_0123456789';

const windowStart = Math.ceil(Date.now() / DAY) * DAY + DAY;
const windowEnd = windowStart + 31 * DAY;
const maxHosts = Math.max(...SIZES);

// mulberry32: each host's bookings independent of the others' (an LCG in floating point repeats itself across hosts).
let seed = 35;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const everyDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['07:00', '19:00']]]));
const names = Array.from({ length: maxHosts }, (_, i) => `h${i}`);
const teamId = (size) => `7e5a0000-0000-4000-8000-${String(size).padStart(12, '0')}`;
const collectiveId = (size) => `7e5b0000-0000-4000-8000-${String(size).padStart(12, '0')}`;
const SOLO = '7e5a0000-0000-4000-8000-ffffffffffff';
const rules = { duration_minutes: 30, slot_interval_minutes: 30, future_limit_days: 400, minimum_notice_minutes: 0 };
const workspace = {
  limits: { pat_per_minute: 100_000_000 },
  users: [
    { username: 'boss', email: 'boss@bench.test', role: 'owner' },
    ...names.map((username) => ({
      username,
      email: `${username}@bench.test`,
      timezone: 'UTC',
      schedule: { timezone: 'UTC', weekly: everyDay },
    })),
  ],
  event_types: [
    { id: SOLO, owner: 'h0', slug: 'solo', name: 'Solo', ...rules },
    ...SIZES.map((size) => ({
      id: teamId(size),
      owner: 'boss',
      slug: `team-${size}`,
      name: `Team of ${size}`,
      ...rules,
      scheduling: 'round_robin',
      hosts: names.slice(0, size).map((username, i) => ({ username, weight: 1 + (i % 3) })),
    })),
    ...SIZES.map((size) => ({
      id: collectiveId(size),
      owner: 'boss',
      slug: `together-${size}`,
      name: `All ${size} together`,
      ...rules,
      scheduling: 'collective',
      hosts: names.slice(0, size).map((username) => ({ username })),
    })),
  ],
  tokens: [{ name: 'boss', user: 'boss', secret, scopes: ['slots:read', 'bookings:create'] }],
};

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));
const store = await core.openStore(join(dir, 'team-slots.db'));
const clock = core.systemClock;
await core.loadWorkspace({ store, clock, ids: core.randomIds }, core.parseWorkspace(JSON.stringify(workspace)));
const deps = benchDeps(store, clock);
const boss = await core.authenticate({ store, clock }, secret);

// One booking made through the API is the template every seeded row copies.
const createBooking = core.operations.find((o) => o.name === 'create_booking');
const made = await core.execute(
  deps,
  createBooking,
  boss,
  {
    params: {},
    query: {},
    body: { event_type_id: SOLO, start: new Date(windowEnd + 200 * DAY + 8 * 60 * MIN).toISOString(), attendee: { email: 'x@bench.test' } },
    idempotencyKey: 'template',
  },
  'bench',
);
if (made.outcome.status !== 201) throw new Error(`create_booking answered ${made.outcome.status}`);
const template = await store.db.selectFrom('bookings').selectAll().executeTakeFirstOrThrow();
await store.db.deleteFrom('bookings').execute();
const users = await store.db.selectFrom('users').select(['id', 'username']).execute();
const idOf = new Map(users.map((u) => [u.username, u.id]));

/** A time-off row as the API stores one, written directly: the seeding of a million rows cannot go request by request. */
function timeOffRow(userId, startMs, endMs) {
  const now = new Date().toISOString();
  return {
    id: core.randomIds.uuid(),
    user_id: userId,
    start_at: new Date(startMs).toISOString(),
    end_at: new Date(endMs).toISOString(),
    reason: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
}

// Each host's 2,000 bookings lie over the half year around the window (about 170 in it), at half hours of the
// working day, and their 500 busy ranges (time off, 30 minutes to 3 hours) over the same half year.
const spanStart = windowStart - 75 * DAY;
const spanDays = 180;
const seedStart = performance.now();
for (const name of names) {
  const hostId = idOf.get(name);
  const bookings = [];
  const taken = new Set();
  while (bookings.length < BOOKINGS_PER_HOST) {
    const day = Math.floor(random() * spanDays);
    const slot = Math.floor(random() * 24);
    const key = day * 24 + slot;
    if (taken.has(key)) continue;
    taken.add(key);
    const start = spanStart + day * DAY + 7 * 60 * MIN + slot * 30 * MIN;
    bookings.push({
      ...template,
      uid: core.randomIds.uuid(),
      host_user_id: hostId,
      event_type_id: SOLO,
      start_at: new Date(start).toISOString(),
      end_at: new Date(start + 30 * MIN).toISOString(),
    });
  }
  const busy = Array.from({ length: BUSY_PER_HOST }, () => {
    const start = spanStart + Math.floor(random() * spanDays * 24 * 4) * 15 * MIN;
    return timeOffRow(hostId, start, start + (2 + Math.floor(random() * 11)) * 15 * MIN);
  });
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < bookings.length; i += 100)
      await trx
        .insertInto('bookings')
        .values(bookings.slice(i, i + 100))
        .execute();
    for (let i = 0; i < busy.length; i += 100)
      await trx
        .insertInto('time_off')
        .values(busy.slice(i, i + 100))
        .execute();
  });
}
const seedMs = Math.round(performance.now() - seedStart);

const timed = (eventTypeId) => timedSlots(deps, boss, eventTypeId, windowStart, windowEnd);

/** Each pool size's p50 and p99 against the single host's, interleaved; `target` asserts the p50s of TARGETS. */
async function measure(label, target, idOfSize = teamId) {
  const solo = await timed(SOLO);
  const results = {};
  for (const size of SIZES) {
    const team = await timed(idOfSize(size));
    // A round-robin pool lists at least what its first host lists; a collective one at most.
    const collective = idOfSize === collectiveId;
    if (collective ? team.slots.length > solo.slots.length : team.slots.length < solo.slots.length)
      throw new Error(`the pool of ${size} (${label}) lists starts its first host contradicts`);
    for (let i = 0; i < 5; i++) await timed(idOfSize(size));
    const teamSamples = [];
    const soloSamples = [];
    for (let i = 0; i < ROUNDS; i++) {
      teamSamples.push((await timed(idOfSize(size))).ms);
      soloSamples.push((await timed(SOLO)).ms);
    }
    const t = percentiles(teamSamples);
    const s = percentiles(soloSamples);
    results[size] = {
      team: t,
      single_host: s,
      ratio_p50: Math.round((t.p50Ms / s.p50Ms) * 100) / 100,
      per_host_p50_ms: Math.round((t.p50Ms / size) * 1000) / 1000,
      slots: team.slots.length,
    };
    if (target && TARGETS[size] !== undefined && t.p50Ms > TARGETS[size]) {
      failed = true;
      process.stderr.write(`team slots: ${size} hosts p50 ${t.p50Ms} ms is over ${TARGETS[size]} ms\n`);
    }
    process.stdout.write(`team slots (${label}), ${size} hosts: p50 ${t.p50Ms} ms p99 ${t.p99Ms} ms; single host p50 ${s.p50Ms} ms\n`);
  }
  return results;
}

let failed = false;
const independent = await measure('independent calendars', true);
const collective = await measure('collective, independent calendars', false, collectiveId);
// The worst case: one half hour a day every host is away (a shared lunch), so no host's starts are ever all
// listed and every host of the pool is read. Reported, not asserted: the hosts have calendars of their own.
const lunch = [];
for (const name of names) {
  for (let d = 0; d < 31; d++) {
    const start = windowStart + d * DAY + 12 * 60 * MIN;
    lunch.push(timeOffRow(idOf.get(name), start, start + 30 * MIN));
  }
}
await store.db.transaction().execute(async (trx) => {
  for (let i = 0; i < lunch.length; i += 100)
    await trx
      .insertInto('time_off')
      .values(lunch.slice(i, i + 100))
      .execute();
});
const everyHostRead = await measure('shared lunch: every host read', false);

// Where the time goes, for the largest pool when every host is read: reading each host's time (queries) against
// judging their starts.
const largest = await eventTypeById(store.db, teamId(maxHosts));
const policy = policyOf(largest);
const range = { startMs: windowStart, endMs: windowEnd };
let t = performance.now();
const members = await loadTeamTime({ db: store.db, clock, calendars: deps.calendars }, policy, largest.pool, range);
const readMs = performance.now() - t;
t = performance.now();
teamFreeSlots(members, range);
const judgeMs = performance.now() - t;

await store.close();
rmSync(dir, { recursive: true, force: true });

writeReport('team-slots', {
  benchmark:
    'list_slots over 31 days of a round-robin type, each host with 2,000 bookings and 500 time-off ranges, against one host’s own type',
  seeded: { hosts: maxHosts, bookings: maxHosts * BOOKINGS_PER_HOST, busy_ranges: maxHosts * BUSY_PER_HOST, ms: seedMs },
  by_pool_size: independent,
  collective_by_pool_size: collective,
  every_host_read: everyHostRead,
  largest_pool_split_ms: { read_hosts_time: Math.round(readMs * 10) / 10, judge_starts: Math.round(judgeMs * 10) / 10 },
  targets_p50_ms: TARGETS,
});
if (failed) process.exitCode = 1;
