// Benchmark of issue 4: POST /v1/series with count 42, in process, on a SQLite
// file. The real HTTP app (auth, rate limit, idempotency, availability,
// 42 occurrences, events, the confirmation mail) is served on loopback from
// this process and called one request at a time, so each latency is one
// whole create. Beside it, in the same run: the same creates through core's
// `execute` alone (no HTTP), and the database floor: a raw better-sqlite3
// transaction writing one series row and 42 booking rows.
// Target: p50 <= 25 ms. Build first: `npx turbo run build`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  conferenceLinksAt,
  createAuthenticator,
  createCalendarReader,
  createRateLimiter,
  execute,
  loadLimits,
  loadWorkspace,
  openStore,
  operations,
  parseWorkspace,
  randomIds,
  systemClock,
} from '@schedule/core';
import BetterSqlite3 from 'better-sqlite3';
import { request } from 'undici';
import { buildApp, listen } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const CREATES = Number(process.env.BENCH_CREATES ?? 300);
const secret = 'pat_bench_series_0123456789';
// Each run books its own host, so both start from an empty calendar and grow alike.
const HOSTS = { http: '7e57a1a0-0000-4000-8000-0000000000a1', core: '7e57a1a0-0000-4000-8000-0000000000a2' };
const eventTypeId = '7e57a1a0-0000-4000-8000-0000000000c2';
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
// Next Monday, so every series starts in the future.
const today = new Date();
const monday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + ((8 - today.getUTCDay()) % 7 || 7)));
const startsOn = monday.toISOString().slice(0, 10);

/** Series i: one weekday, its own quarter of the day, so no two series meet and none skips. */
function body(i, hostId) {
  const quarter = Math.floor(i / 7);
  const hh = String(Math.floor(quarter / 4)).padStart(2, '0');
  const mm = String((quarter % 4) * 15).padStart(2, '0');
  return {
    host_user_id: hostId,
    event_type_id: eventTypeId,
    attendee: { email: `guest${i}@example.com`, name: `Guest ${i}` },
    frequency: 'weekly',
    weekdays: [WEEKDAYS[i % 7]],
    time: `${hh}:${mm}`,
    starts_on: startsOn,
    count: 42,
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const r = (x) => Math.round(x * 100) / 100;
  return { p50Ms: r(percentile(sorted, 50)), p90Ms: r(percentile(sorted, 90)), p99Ms: r(percentile(sorted, 99)), n: samples.length };
}

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-series-'));

// 1. The floor: one transaction writing a series row and 42 booking rows, straight on better-sqlite3.
function rawFloor(rounds) {
  const db = new BetterSqlite3(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`create table series (uid text primary key, body text not null);
           create table bookings (uid text primary key, series_uid text, host text not null, start_at text not null, end_at text not null, status text not null, body text not null);
           create index bookings_host_start on bookings (host, start_at)`);
  const insertSeries = db.prepare('insert into series values (?, ?)');
  const insertBooking = db.prepare(`insert into bookings values (?, ?, 'host', ?, ?, 'confirmed', ?)`);
  const write = db.transaction((i) => {
    insertSeries.run(`s-${i}`, '{"attendee":"guest@example.com"}');
    for (let k = 0; k < 42; k++) {
      const start = new Date(Date.UTC(2030, 0, 1) + i * 900_000 + k * 604_800_000).toISOString();
      insertBooking.run(`b-${i}-${k}`, `s-${i}`, start, start, '{"attendee":"guest@example.com"}');
    }
  });
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    write(i);
    samples.push(performance.now() - t);
  }
  db.close();
  return summary(samples);
}

// 2. The service, in this process.
const store = await openStore(join(dir, 'bench.db'));
await loadWorkspace(
  { store, clock: systemClock, ids: randomIds },
  parseWorkspace(
    JSON.stringify({
      limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
      users: [
        { id: HOSTS.http, username: 'host', email: 'host@bench.test', role: 'owner', timezone: 'UTC' },
        { id: HOSTS.core, username: 'other', email: 'other@bench.test', role: 'user', timezone: 'UTC' },
      ],
      event_types: [
        {
          id: eventTypeId,
          owner: 'host',
          slug: 'call',
          name: 'Call',
          duration_minutes: 15,
          slot_interval_minutes: 15,
          future_limit_days: 400,
        },
      ],
      tokens: [{ name: 'bench', user: 'host', secret, scopes: ['series:write', 'series:read'] }],
    }),
  ),
);
const core = {
  store,
  clock: systemClock,
  ids: randomIds,
  idempotencyLeaseMs: 60_000,
  calendars: createCalendarReader(async () => []),
  conferenceLinks: conferenceLinksAt('https://meet.bench'),
};
const authenticate = createAuthenticator({ store, clock: systemClock }, { cacheTtlMs: 2000 });
const silent = { info() {}, warn() {}, error() {} };
const app = buildApp({
  core,
  authenticate,
  operations,
  rateLimiter: createRateLimiter({ clock: systemClock }),
  limits: await loadLimits(store),
  logger: silent,
});
const server = await listen(app, { host: '127.0.0.1', port: 0 });

async function overHttp(i) {
  const res = await request(`${server.url}/v1/series`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': `http-${i}` },
    body: JSON.stringify(body(i, HOSTS.http)),
  });
  const json = await res.body.json();
  if (res.statusCode !== 201 || json.data.occurrences.length !== 42)
    throw new Error(`create ${i}: ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
}

const createOperation = operations.find((o) => o.name === 'create_series');
const principal = await authenticate(secret);
async function inCore(i) {
  const { outcome } = await execute(
    core,
    createOperation,
    principal,
    { params: {}, query: {}, body: body(i, HOSTS.core), idempotencyKey: `core-${i}` },
    `bench-${i}`,
  );
  if (outcome.data.occurrences.length !== 42) throw new Error(`core create ${i} booked ${outcome.data.occurrences.length}`);
}

async function measure(run) {
  // Warm-up: compile queries, fill caches.
  for (let i = 0; i < 10; i++) await run(i);
  const samples = [];
  for (let i = 10; i < CREATES; i++) {
    const t = performance.now();
    await run(i);
    samples.push(performance.now() - t);
  }
  return summary(samples);
}

const http = await measure(overHttp);
const coreOnly = await measure(inCore);
const floor = rawFloor(CREATES);
await server.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

const report = {
  benchmark: 'POST /v1/series, count 42 weekly, in process on a SQLite file, one request at a time',
  creates: CREATES - 10,
  http,
  core_execute_only: coreOnly,
  raw_better_sqlite3_series_plus_42_rows: floor,
  ratio_http_p50_to_floor_p50: Math.round((http.p50Ms / floor.p50Ms) * 10) / 10,
  target_p50_ms: 25,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/create-series.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
