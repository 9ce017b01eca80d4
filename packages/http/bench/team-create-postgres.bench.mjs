// Benchmark of issue 35: POST /v1/bookings on PostgreSQL for a 50-host
// round-robin event type, against single-host creates spread over the same
// 50 hosts, on one `schedule serve` process, in the same run, alternating
// (single, team, single, team). Each team start takes 50 creates, one per
// host, so every create succeeds and the rule, not a refusal, picks each host.
// A team create locks its free hosts together and counts their recent
// bookings, so its pool's creates run one after another: the ratio says what
// that costs. After the run no two confirmed bookings of a host may overlap.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchSchema, closeQueries, postgresReachable, query, startServe } from './postgres-support.mjs';
import { startProcess } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const HOSTS = 50;
const CONNECTIONS = 16;
const secret = 'pat_bench_pg_team_create_0123456789';
const QUARTER = 15 * 60_000;
const DAY = 86_400_000;
const TEAM = '7e57a1a0-0000-4000-8000-0000000000ff';
const single = (h) => `7e57a1a0-0000-4000-8000-${String(h).padStart(12, '0')}`;

if (!(await postgresReachable())) {
  process.stdout.write('team-create-postgres: no PostgreSQL reachable (BENCH_POSTGRES_URL); skipped\n');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));
const workspacePath = join(dir, 'workspace.json');
const hosts = Array.from({ length: HOSTS }, (_, h) => h);
const always = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]));
const rules = { duration_minutes: 15, slot_interval_minutes: 15, future_limit_days: 3650, minimum_notice_minutes: 0 };
writeFileSync(
  workspacePath,
  JSON.stringify({
    limits: { pat_per_minute: 100_000_000 },
    users: [
      { username: 'owner', email: 'owner@bench.test', role: 'owner', timezone: 'UTC' },
      ...hosts.map((h) => ({
        username: `host${h}`,
        email: `host${h}@bench.test`,
        timezone: 'UTC',
        schedule: { timezone: 'UTC', weekly: always },
      })),
    ],
    event_types: [
      ...hosts.map((h) => ({ id: single(h), owner: `host${h}`, slug: 'call', name: 'Call', ...rules })),
      {
        id: TEAM,
        owner: 'owner',
        slug: 'team',
        name: 'Team',
        ...rules,
        scheduling: 'round_robin',
        hosts: hosts.map((h) => ({ username: `host${h}`, weight: 1 + (h % 3) })),
      },
    ],
    tokens: [{ name: 'bench', user: 'owner', secret, scopes: ['bookings:create'] }],
  }),
);

// Single-host creates and team creates each take their own days, so neither blocks the other's starts.
let nextSingle = 0;
let nextTeam = 0;
const singleStart = Math.ceil(Date.now() / DAY) * DAY + DAY;
const teamStart = singleStart + 400 * DAY;
function drive(url, team) {
  return autocannon({
    url: `${url}/v1/bookings`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    setupClient(client) {
      client.setRequests([
        {
          setupRequest(request) {
            const n = team ? nextTeam++ : nextSingle++;
            request.headers = { ...request.headers, 'idempotency-key': `${team ? 'team' : 'single'}-${n}` };
            request.body = JSON.stringify({
              event_type_id: team ? TEAM : single(n % HOSTS),
              // A team start per 50 creates; a host's own next quarter hour per 50 singles.
              start: new Date((team ? teamStart : singleStart) + Math.floor(n / HOSTS) * QUARTER).toISOString(),
              attendee: { email: `guest${n}@example.com` },
            });
            return request;
          },
        },
      ]);
    },
  });
}

function checked(result, what) {
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${what}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { createsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

const schema = benchSchema('team');
const serveArgs = [bin, 'serve', '--workspace', workspacePath, '--db', schema.url, '--port', '0'];
let server;
const runs = { single: [], team: [] };
let overlapping;
try {
  server = await startServe(startProcess, serveArgs, { LOG_LEVEL: 'warn' });
  // Warm-up, then alternate.
  checked(await autocannonOnce(server.url, false), 'warm-up single');
  checked(await autocannonOnce(server.url, true), 'warm-up team');
  for (let i = 0; i < 2; i++) {
    runs.single.push(checked(await drive(server.url, false), 'single-host creates'));
    runs.team.push(checked(await drive(server.url, true), 'team creates'));
  }
  const [row] = await query(
    `select count(*)::int as n from ${schema.name}.bookings a join ${schema.name}.bookings b
       on a.host_user_id = b.host_user_id and a.uid < b.uid and a.start_at < b.end_at and b.start_at < a.end_at
     where a.status = 'confirmed' and b.status = 'confirmed'`,
  );
  overlapping = row.n;
} finally {
  await server?.stop();
  await schema.drop();
  await closeQueries();
  rmSync(dir, { recursive: true, force: true });
}
if (overlapping !== 0) throw new Error(`${overlapping} pairs of overlapping confirmed bookings after the run`);

/** A one-second run, for warming up. */
function autocannonOnce(url, team) {
  return autocannon({
    url: `${url}/v1/bookings`,
    method: 'POST',
    connections: 4,
    amount: 100,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    setupClient(client) {
      client.setRequests([
        {
          setupRequest(request) {
            const n = team ? nextTeam++ : nextSingle++;
            request.headers = { ...request.headers, 'idempotency-key': `warm-${team ? 'team' : 'single'}-${n}` };
            request.body = JSON.stringify({
              event_type_id: team ? TEAM : single(n % HOSTS),
              start: new Date((team ? teamStart : singleStart) + Math.floor(n / HOSTS) * QUARTER).toISOString(),
              attendee: { email: `warm${n}@example.com` },
            });
            return request;
          },
        },
      ]);
    },
  });
}

const best = (list) => list.reduce((a, b) => (b.createsPerSecond > a.createsPerSecond ? b : a));
const s = best(runs.single);
const t = best(runs.team);
const report = {
  benchmark: `POST /v1/bookings on PostgreSQL: a ${HOSTS}-host round-robin type against single-host creates over the same hosts, ${CONNECTIONS} connections, one process`,
  seconds,
  load_average_1m: Math.round(loadavg()[0] * 100) / 100,
  single_host: s,
  round_robin_50: t,
  ratio: Math.round((t.createsPerSecond / s.createsPerSecond) * 100) / 100,
  runs,
  overlapping_bookings: overlapping,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/team-create-postgres.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `team creates (PostgreSQL, 50 hosts): ${t.createsPerSecond}/s p50 ${t.p50Ms} ms; single-host creates ${s.createsPerSecond}/s p50 ${s.p50Ms} ms; ratio ${report.ratio}\n`,
);
