// Benchmark of issue 3: sustained POST /v1/bookings on SQLite, every request
// with its own Idempotency-Key and its own free slot, limits raised by the
// workspace. Beside it, in the same run, a raw better-sqlite3 loop doing the
// bare minimum of the same job (a transaction that checks for an overlap and
// inserts), which is the ceiling the database itself allows.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import BetterSqlite3 from 'better-sqlite3';
import { startProcess } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// BENCH_SCHEDULE_BIN runs another build (an older commit's) under the same load, for before/after.
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const secret = 'pat_bench_create_0123456789';
const eventTypeId = '7e57a1a0-0000-4000-8000-0000000000c1';
const QUARTER = 15 * 60_000;
const firstSlot = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));

// 1. The ceiling: check-and-insert transactions straight on better-sqlite3.
function rawLoop(count) {
  const db = new BetterSqlite3(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`create table bookings (uid text primary key, host text not null, start_at text not null, end_at text not null, status text not null, body text not null);
           create index bookings_host_start on bookings (host, start_at)`);
  // Bounded below by the longest booking (a day), as the service's own query is.
  const overlap = db.prepare(
    `select 1 from bookings where host = ? and status = 'confirmed' and start_at > ? and start_at < ? and end_at > ? limit 1`,
  );
  const insert = db.prepare(`insert into bookings values (?, ?, ?, ?, 'confirmed', ?)`);
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const start = new Date(firstSlot + i * QUARTER).toISOString();
    const end = new Date(firstSlot + i * QUARTER + QUARTER).toISOString();
    begin.run();
    const dayBefore = new Date(firstSlot + i * QUARTER - 86_400_000).toISOString();
    if (!overlap.get('host', dayBefore, end, start)) insert.run(`uid-${i}`, 'host', start, end, '{"attendee":"guest@example.com"}');
    commit.run();
  }
  const perSecond = Math.round(count / ((performance.now() - started) / 1000));
  db.close();
  return perSecond;
}
const rawPerSecond = rawLoop(50_000);

// 2. The service: the real server on a SQLite file, driven by autocannon.
const workspacePath = join(dir, 'workspace.json');
writeFileSync(
  workspacePath,
  JSON.stringify({
    limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
    users: [{ username: 'host', email: 'host@bench.test', role: 'owner', timezone: 'UTC' }],
    event_types: [
      {
        id: eventTypeId,
        owner: 'host',
        slug: 'call',
        name: 'Call',
        duration_minutes: 15,
        slot_interval_minutes: 15,
        future_limit_days: 3650,
      },
    ],
    tokens: [{ name: 'bench', user: 'host', secret, scopes: ['bookings:create'] }],
  }),
);
const server = await startProcess([bin, 'serve', '--workspace', workspacePath, '--db', join(dir, 'bench.db'), '--port', '0'], {
  LOG_LEVEL: 'info',
});
let next = 0;
const result = await autocannon({
  url: `${server.url}/v1/bookings`,
  method: 'POST',
  connections: 16,
  duration: seconds,
  headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  setupClient(client) {
    client.setRequests([
      {
        setupRequest(request) {
          const i = next++;
          request.headers = { ...request.headers, 'idempotency-key': `bench-${i}` };
          request.body = JSON.stringify({
            event_type_id: eventTypeId,
            start: new Date(firstSlot + i * QUARTER).toISOString(),
            attendee: { email: `guest${i}@example.com`, name: `Guest ${i}` },
          });
          return request;
        },
      },
    ]);
  },
});
await server.stop();
rmSync(dir, { recursive: true, force: true });
if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);

const report = {
  benchmark: 'POST /v1/bookings on SQLite, unique keys and free slots',
  seconds,
  schedule: {
    createsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
  },
  raw_better_sqlite3_check_and_insert_per_second: rawPerSecond,
  ratio_to_raw: Math.round((result.requests.average / rawPerSecond) * 1000) / 1000,
  target_creates_per_second: 1500,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/create-booking.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `POST /v1/bookings: ${report.schedule.createsPerSecond} creates/s (p50 ${report.schedule.p50Ms} ms, p99 ${report.schedule.p99Ms} ms); raw better-sqlite3 check-and-insert: ${rawPerSecond}/s (target 1500/s)\n`,
);
