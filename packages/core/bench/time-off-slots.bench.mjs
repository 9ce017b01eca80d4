// Benchmark of issue 32: a 31-day slot list for a host with 200 date
// overrides and 100 time-off ranges stays within 1.5x the p50 of the same
// list for a plain host (weekly hours only), measured in the same run,
// interleaved. Both hosts work 07:00-19:00 UTC every day; the core call
// (execute of list_slots, database reads included) is timed on SQLite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '../dist/index.js';
import { benchDeps, interleaved, timedSlots, writeReport } from './support.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const TARGET_RATIO = 1.5;
const secret = 'pat_bench_time_off_0123456789';
const PLAIN_TYPE = '7e57a1a0-0000-4000-8000-0000000000a1';
const BUSY_TYPE = '7e57a1a0-0000-4000-8000-0000000000a2';
const MIN = 60_000;
const DAY = 86_400_000;

// A window starting tomorrow at 00:00 UTC.
const windowStart = Math.ceil(Date.now() / DAY) * DAY + DAY;
const windowEnd = windowStart + 31 * DAY;
const dateOf = (ms) => new Date(ms).toISOString().slice(0, 10);

let seed = 32;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

// 200 overrides on 200 consecutive days from 60 days before the window: every
// day of the window has one, and the rest lie around it, as a host's year of
// exceptions would. Each keeps about the plain host's twelve hours, shaped
// otherwise (a lunch break, an early or a late day), so both hosts list about
// as many slots and the ratio measures what overrides and time off cost, not
// fewer slots.
const SHAPES = [
  [
    ['07:00', '12:00'],
    ['12:30', '19:00'],
  ],
  [['06:00', '18:00']],
  [['08:00', '20:00']],
];
const overrides = [];
for (let i = 0; i < 200; i++) overrides.push({ date: dateOf(windowStart + (i - 60) * DAY), intervals: SHAPES[i % 3] });

// 100 ranges of time off inside the window, 30 minutes to 4 hours long, at quarter hours.
const timeOff = [];
for (let i = 0; i < 100; i++) {
  const start = windowStart + Math.floor(random() * 31 * 24 * 4) * 15 * MIN;
  const length = (2 + Math.floor(random() * 15)) * 15 * MIN;
  timeOff.push({ start: new Date(start).toISOString(), end: new Date(start + length).toISOString(), reason: `away ${i}` });
}

const everyDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['07:00', '19:00']]]));
const host = (username, schedule) => ({ username, email: `${username}@bench.test`, role: 'owner', timezone: 'UTC', schedule });
const eventType = (id, owner) => ({
  id,
  owner,
  slug: 'call',
  name: 'Call',
  duration_minutes: 15,
  slot_interval_minutes: 15,
  future_limit_days: 60,
});
const workspace = {
  limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
  users: [
    host('plain', { timezone: 'UTC', weekly: everyDay }),
    { ...host('busy', { timezone: 'UTC', weekly: everyDay, overrides }), role: 'admin' },
  ],
  event_types: [eventType(PLAIN_TYPE, 'plain'), eventType(BUSY_TYPE, 'busy')],
  tokens: [
    { name: 'plain', user: 'plain', secret: `${secret}_plain`, scopes: ['slots:read'] },
    { name: 'busy', user: 'busy', secret: `${secret}_busy`, scopes: ['slots:read', 'availability:write'] },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));
const store = await core.openStore(join(dir, 'time-off.db'));
const clock = core.systemClock;
await core.loadWorkspace({ store, clock, ids: core.randomIds }, core.parseWorkspace(JSON.stringify(workspace)));
const deps = benchDeps(store, clock);
const principals = {
  [PLAIN_TYPE]: await core.authenticate({ store, clock }, `${secret}_plain`),
  [BUSY_TYPE]: await core.authenticate({ store, clock }, `${secret}_busy`),
};

// The time off goes in through the API's own operation.
const createTimeOff = core.operations.find((o) => o.name === 'create_time_off');
for (const [i, body] of timeOff.entries()) {
  const call = { params: { user_id: 'me' }, query: {}, body, idempotencyKey: `bench-${i}` };
  const executed = await core.execute(deps, createTimeOff, principals[BUSY_TYPE], call, 'bench');
  if (executed.outcome.status !== 201) throw new Error(`create_time_off answered ${executed.outcome.status}`);
}

const timed = (eventTypeId) => timedSlots(deps, principals[eventTypeId], eventTypeId, windowStart, windowEnd);

const plainFirst = await timed(PLAIN_TYPE);
const busyFirst = await timed(BUSY_TYPE);
// The busy host must actually be shaped by its overrides and time off, or the comparison measures nothing.
const insideTimeOff = busyFirst.slots.filter((s) =>
  timeOff.some((r) => Date.parse(s.start) < Date.parse(r.end) && Date.parse(s.end) > Date.parse(r.start)),
);
if (busyFirst.slots.length >= plainFirst.slots.length || insideTimeOff.length > 0) {
  throw new Error('the host with overrides and time off lists slots the plain host would');
}

const {
  measured: busy,
  floor: plain,
  ratio,
} = await interleaved(
  ROUNDS,
  () => timed(BUSY_TYPE),
  () => timed(PLAIN_TYPE),
);
await store.close();
rmSync(dir, { recursive: true, force: true });

const report = {
  benchmark: 'list_slots over 31 days: a host with 200 date overrides and 100 time-off ranges vs a plain host (weekly hours only)',
  slots_listed: { plain: plainFirst.slots.length, overrides_and_time_off: busyFirst.slots.length },
  plain,
  overrides_and_time_off: busy,
  ratio_p50: ratio,
  target_ratio: TARGET_RATIO,
};
writeReport('time-off-slots', report);
process.stdout.write(
  `time-off slots (31 days, 200 overrides, 100 time-off ranges): p50 ${busy.p50Ms} ms p99 ${busy.p99Ms} ms; plain host p50 ${plain.p50Ms} ms p99 ${plain.p99Ms} ms; ratio ${ratio} (target <= ${TARGET_RATIO})\n`,
);
if (ratio > TARGET_RATIO) {
  process.stderr.write(`time-off slots: the p50 ratio ${ratio} is over ${TARGET_RATIO}\n`);
  process.exitCode = 1;
}
