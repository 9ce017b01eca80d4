// Benchmark of issue 3: a 31-day slot list for one host with 2,000 bookings
// and 500 calendar busy intervals. p50 and p99 of the core call (execute of
// list_slots, database read included), then over HTTP through `schedule serve`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '../dist/index.js';
import { benchDeps, percentiles, writeReport } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../../cli/dist/bin.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const secret = 'pat_bench_slots_0123456789';
const eventTypeId = '7e57a1a0-0000-4000-8000-000000000001';
const MIN = 60_000;
const DAY = 86_400_000;

// A window starting tomorrow at 00:00 UTC; the host works 07:00-19:00 UTC every day.
const windowStart = Math.ceil(Date.now() / DAY) * DAY + DAY;
const windowEnd = windowStart + 31 * DAY;

// 2,000 bookings and 500 busy intervals spread over the window, deterministically.
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const bookings = [];
for (let i = 0; i < 2000; i++) {
  const day = Math.floor(random() * 31);
  const quarter = Math.floor(random() * 48); // 12 working hours in 15-minute steps
  bookings.push({
    event_type: 'call',
    start: new Date(windowStart + day * DAY + 7 * 60 * MIN + quarter * 15 * MIN).toISOString(),
    attendee: { email: `guest${i}@example.com`, name: `Guest ${i}` },
  });
}
const busy = [];
for (let i = 0; i < 500; i++) {
  const start = windowStart + Math.floor(random() * 31 * 24 * 4) * 15 * MIN;
  busy.push({ start: new Date(start).toISOString(), end: new Date(start + 45 * MIN).toISOString() });
}
const everyDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['07:00', '19:00']]]));
const workspace = {
  limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
  users: [
    {
      username: 'host',
      email: 'host@bench.test',
      role: 'owner',
      timezone: 'UTC',
      schedule: { timezone: 'UTC', weekly: everyDay },
      calendars: [{ kind: 'static', busy }],
    },
  ],
  event_types: [
    { id: eventTypeId, owner: 'host', slug: 'call', name: 'Call', duration_minutes: 15, slot_interval_minutes: 15, future_limit_days: 60 },
  ],
  tokens: [{ name: 'bench', user: 'host', secret, scopes: ['slots:read'] }],
  bookings,
};

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));
const workspacePath = join(dir, 'workspace.json');
writeFileSync(workspacePath, JSON.stringify(workspace));
const dbPath = join(dir, 'slots.db');

// In process: the core call as every front end makes it.
const store = await core.openStore(dbPath);
const clock = core.systemClock;
await core.loadWorkspace({ store, clock, ids: core.randomIds }, core.parseWorkspace(JSON.stringify(workspace)));
const deps = benchDeps(store, clock);
const principal = await core.authenticate({ store, clock }, secret);
const operation = core.operations.find((o) => o.name === 'list_slots');
const call = {
  params: {},
  query: { event_type_id: eventTypeId, start: new Date(windowStart).toISOString(), end: new Date(windowEnd).toISOString() },
  body: undefined,
};
const first = await core.execute(deps, operation, principal, call, 'bench');
const slotCount = first.outcome.data.slots.length;
for (let i = 0; i < 30; i++) await core.execute(deps, operation, principal, call, 'warm');
const coreSamples = [];
for (let i = 0; i < ROUNDS; i++) {
  const t = performance.now();
  await core.execute(deps, operation, principal, call, 'bench');
  coreSamples.push(performance.now() - t);
}
await store.close();

// Over HTTP: the real server on the same database file, one request at a time.
const child = spawn(process.execPath, [bin, 'serve', '--db', dbPath, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { ...process.env, LOG_LEVEL: 'warn' },
});
const url = await new Promise((ok, fail) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) ok(m[1]);
  });
  child.once('exit', (code) => fail(new Error(`serve exited ${code}`)));
});
const target = `${url}/v1/slots?${new URLSearchParams(call.query)}`;
const headers = { authorization: `Bearer ${secret}` };
for (let i = 0; i < 30; i++) await (await fetch(target, { headers })).arrayBuffer();
const httpSamples = [];
for (let i = 0; i < ROUNDS; i++) {
  const t = performance.now();
  const res = await fetch(target, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`slots answered ${res.status}`);
  httpSamples.push(performance.now() - t);
}
await new Promise((done) => {
  child.once('exit', done);
  child.kill('SIGTERM');
});
rmSync(dir, { recursive: true, force: true });

const report = {
  benchmark: 'GET /v1/slots, 31 days, 2,000 bookings, 500 busy intervals',
  slots_listed: slotCount,
  core: percentiles(coreSamples),
  http: percentiles(httpSamples),
  target_core_p50_ms: 5,
};
writeReport('slots', report);
process.stdout.write(
  `slots (31 days, 2000 bookings, 500 busy): core p50 ${report.core.p50Ms} ms p99 ${report.core.p99Ms} ms; HTTP p50 ${report.http.p50Ms} ms p99 ${report.http.p99Ms} ms (target core p50 <= 5 ms)\n`,
);
