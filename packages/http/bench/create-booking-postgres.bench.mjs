// Benchmark of issue 18: sustained POST /v1/bookings on PostgreSQL, creates
// spread over 50 hosts, 16 connections, every request with its own
// Idempotency-Key and free slot. In the same run, on the same server:
// PostgreSQL's own `pgbench -N` with 16 clients (the ceiling), one and then
// two `schedule serve` processes on one schema (scale-out, measured), and the
// CPU each create costs the Node process and the PostgreSQL backends, which
// is what predicts throughput on a machine with more cores. After the run no
// two confirmed bookings of a host may overlap.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  backendsOf,
  benchSchema,
  closeQueries,
  cpuMeter,
  pgbenchSimpleUpdate,
  postgresReachable,
  processMeter,
  query,
  startServe,
} from './postgres-support.mjs';
import { startProcess } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// BENCH_SCHEDULE_BIN runs another build (an older commit's) under the same load, for before/after.
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const HOSTS = 50;
const CONNECTIONS = 16;
const TARGET_RATIO = 0.25;
// How long the bench waits for the mail of a run to be sent before it reports what is left.
const MAIL_DRAIN_LIMIT_MS = Number(process.env.BENCH_MAIL_DRAIN_MS ?? 120_000);
const secret = 'pat_bench_pg_create_0123456789';
const QUARTER = 15 * 60_000;
const firstSlot = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
const eventTypeId = (h) => `7e57a1a0-0000-4000-8000-${String(h).padStart(12, '0')}`;

if (!(await postgresReachable())) {
  process.stdout.write('create-booking-postgres: no PostgreSQL reachable (BENCH_POSTGRES_URL); skipped\n');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));
const workspacePath = join(dir, 'workspace.json');
const hosts = Array.from({ length: HOSTS }, (_, h) => h);
writeFileSync(
  workspacePath,
  JSON.stringify({
    limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
    users: [
      { username: 'owner', email: 'owner@bench.test', role: 'owner', timezone: 'UTC' },
      ...hosts.map((h) => ({ username: `host${h}`, email: `host${h}@bench.test`, role: 'user', timezone: 'UTC' })),
    ],
    event_types: hosts.map((h) => ({
      id: eventTypeId(h),
      owner: `host${h}`,
      slug: 'call',
      name: 'Call',
      duration_minutes: 15,
      slot_interval_minutes: 15,
      future_limit_days: 3650,
    })),
    tokens: [{ name: 'bench', user: 'owner', secret, scopes: ['bookings:create'] }],
  }),
);

// Request n books host n % 50 at that host's next free quarter hour; both
// processes of the scale-out phase draw from the same counter.
let next = 0;
function drive(url, connections, duration) {
  return autocannon({
    url: `${url}/v1/bookings`,
    method: 'POST',
    connections,
    duration,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    setupClient(client) {
      client.setRequests([
        {
          setupRequest(request) {
            const n = next++;
            request.headers = { ...request.headers, 'idempotency-key': `bench-${n}` };
            request.body = JSON.stringify({
              event_type_id: eventTypeId(n % HOSTS),
              start: new Date(firstSlot + Math.floor(n / HOSTS) * QUARTER).toISOString(),
              attendee: { email: `guest${n}@example.com`, name: `Guest ${n}` },
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
  return result;
}

/**
 * Runs the create load on some serve processes at once, with the CPU each
 * side spent per create: during the load alone, and until the mail those
 * creates queued was sent as well (what a create really costs).
 */
async function measure(servers, schema) {
  const warm = await Promise.all(servers.map((s) => drive(s.url, CONNECTIONS / servers.length, 1)));
  for (const r of warm) checked(r, 'warm-up');
  // The warm-up's mail goes first, so that the idle reading below is idle.
  await mailDrain(schema.name);
  // The background loops (outbox, mail, webhooks, calendar sync) poll while
  // idle too: their idle cost is measured first and taken out, so that the
  // CPU per create is what one more create costs, not a share of the polling.
  const idleMs = 2000;
  const idleNode = processMeter(servers.map((s) => s.pid));
  const idleBackends = cpuMeter(backendsOf(schema.name));
  await Promise.all([idleNode.ready, idleBackends.ready]);
  const idleStarted = performance.now();
  await new Promise((done) => setTimeout(done, idleMs));
  const [idleNodeMicros, idleBackendMicros] = await Promise.all([idleNode.stop(), idleBackends.stop()]);
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  const node = processMeter(servers.map((s) => s.pid));
  const backends = cpuMeter(backendsOf(schema.name));
  await Promise.all([node.ready, backends.ready]);
  const loadStarted = performance.now();
  const results = await Promise.all(servers.map((s) => drive(s.url, CONNECTIONS / servers.length, seconds)));
  const [nodeMicros, backendMicros] = await Promise.all([node.read(), backends.read()]);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const mail = await mailDrain(schema.name);
  const [nodeWithMailMicros, backendWithMailMicros] = await Promise.all([node.stop(), backends.stop()]);
  const withMailSeconds = (performance.now() - loadStarted) / 1000;
  const marginal = (busy, idle, over) => Math.max(0, busy - (idle / idleSeconds) * over);
  for (const r of results) checked(r, `${servers.length} process(es)`);
  const creates = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    processes: servers.length,
    createsPerSecond: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    p50Ms: Math.max(...results.map((r) => r.latency.p50)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    total: creates,
    node_cpu_us_per_create: Math.round(marginal(nodeMicros, idleNodeMicros, loadSeconds) / creates),
    postgres_backend_cpu_us_per_create: Math.round(marginal(backendMicros, idleBackendMicros, loadSeconds) / creates),
    mail,
    // The rate creates could keep up with their mail sent too: the load and the drain after it.
    creates_with_mail_sent_per_second: mail.drained ? Math.round(creates / withMailSeconds) : null,
    node_cpu_us_per_create_with_mail: Math.round(marginal(nodeWithMailMicros, idleNodeMicros, withMailSeconds) / creates),
    postgres_backend_cpu_us_per_create_with_mail: Math.round(marginal(backendWithMailMicros, idleBackendMicros, withMailSeconds) / creates),
    idle_cpu_ms_per_second: {
      node: Math.round(idleNodeMicros / idleSeconds / 1000),
      postgres_backends: Math.round(idleBackendMicros / idleSeconds / 1000),
    },
  };
}

/**
 * The mail the creates queued (two each: host and attendee), and how it kept
 * up: what was still unsent when the load ended, and how long the dispatchers
 * then took to send the rest. Mail goes to the logging mailer here (no
 * SMTP_URL), so this is the dispatcher's own cost: claims, holds, composing,
 * and the rows' updates.
 */
async function mailDrain(schema) {
  const counts = async () =>
    (
      await query(
        `select count(*)::int as queued, (count(*) filter (where status = 'pending'))::int as pending from ${schema}.notifications`,
      )
    )[0];
  const atLoadEnd = await counts();
  const started = performance.now();
  let now = atLoadEnd;
  while (now.pending > 0 && performance.now() - started < MAIL_DRAIN_LIMIT_MS) {
    await new Promise((done) => setTimeout(done, 100));
    now = await counts();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    // Every mail of the schema so far: the two-process phase counts the first phase's too.
    queued: atLoadEnd.queued,
    unsent_when_load_ended: atLoadEnd.pending,
    drain_seconds: Math.round(seconds * 10) / 10,
    drained: now.pending === 0,
    unsent_at_the_end: now.pending,
    mails_per_second_after_load: Math.round((atLoadEnd.pending - now.pending) / seconds),
  };
}

function mailWords(mail) {
  const after = mail.drained
    ? `all sent ${mail.drain_seconds} s after it`
    : `${mail.unsent_at_the_end} still unsent ${mail.drain_seconds} s after it`;
  return `${mail.unsent_when_load_ended} of ${mail.queued} unsent when the load ended, ${after}`;
}

/** Confirmed bookings of one host whose times overlap: there must be none. */
async function overlaps(schema) {
  const [row] = await query(
    `select count(*)::int as n from ${schema}.bookings a join ${schema}.bookings b
       on a.host_user_id = b.host_user_id and a.uid < b.uid and a.start_at < b.end_at and b.start_at < a.end_at
     where a.status = 'confirmed' and b.status = 'confirmed'`,
  );
  return row.n;
}

// 1. The ceiling: PostgreSQL's own simple-update benchmark.
const pgbench = await pgbenchSimpleUpdate({ clients: CONNECTIONS, seconds });

// 2. One process, then 3. two processes on the same schema.
const schema = benchSchema('create');
const env = { LOG_LEVEL: 'warn' };
// BENCH_POOL_SIZE tries another pool size per process (the database URL's pool_size).
const dbUrl = process.env.BENCH_POOL_SIZE ? `${schema.url}&pool_size=${process.env.BENCH_POOL_SIZE}` : schema.url;
const serveArgs = [bin, 'serve', '--workspace', workspacePath, '--db', dbUrl, '--port', '0'];
let first;
let one;
let two;
let overlapping;
try {
  first = await startServe(startProcess, serveArgs, env);
  one = await measure([first], schema);
  const second = await startServe(startProcess, serveArgs, env);
  try {
    two = await measure([first, second], schema);
  } finally {
    await second.stop();
  }
  overlapping = await overlaps(schema.name);
} finally {
  await first?.stop();
  await schema.drop();
  await closeQueries();
  rmSync(dir, { recursive: true, force: true });
}
if (overlapping !== 0) throw new Error(`${overlapping} pairs of overlapping confirmed bookings after the run`);

const ratio = one.createsPerSecond / pgbench.tps;
const perCore = (us) => (us > 0 ? Math.round(1_000_000 / us) : null);
const report = {
  benchmark: `POST /v1/bookings on PostgreSQL, ${HOSTS} hosts, ${CONNECTIONS} connections, vs pgbench -N -c ${CONNECTIONS}`,
  seconds,
  // The machine is shared: the load around the run says how far to trust its absolute numbers.
  load_average_1m: Math.round(loadavg()[0] * 100) / 100,
  pgbench_simple_update: pgbench,
  one_process: one,
  two_processes: two,
  ratio_to_pgbench: Math.round(ratio * 1000) / 1000,
  target_ratio: TARGET_RATIO,
  two_over_one: Math.round((two.createsPerSecond / one.createsPerSecond) * 1000) / 1000,
  overlapping_bookings: overlapping,
  // PostgreSQL's CPU for one create in pgbench transactions: both sides slow down alike on a busy machine, so this moves less than either.
  postgres_cpu_per_create_in_pgbench_transactions:
    pgbench.postgres_backend_cpu_us_per_tx > 0
      ? Math.round((one.postgres_backend_cpu_us_per_create / pgbench.postgres_backend_cpu_us_per_tx) * 100) / 100
      : null,
  // Creates per second one core sustains on each side, from the CPU each create cost (one process).
  capacity_model: {
    node_creates_per_core_second: perCore(one.node_cpu_us_per_create),
    postgres_creates_per_core_second: perCore(one.postgres_backend_cpu_us_per_create),
    // The same with each create's two mails sent (to the logging mailer): what a sustained load costs.
    node_creates_with_mail_per_core_second: perCore(one.node_cpu_us_per_create_with_mail),
    postgres_creates_with_mail_per_core_second: perCore(one.postgres_backend_cpu_us_per_create_with_mail),
  },
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/create-booking-postgres.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `POST /v1/bookings on PostgreSQL: ${one.createsPerSecond} creates/s vs pgbench -N ${pgbench.tps} tx/s = ${(ratio * 100).toFixed(1)}% (target ${TARGET_RATIO * 100}%); ` +
    `two processes: ${two.createsPerSecond}/s; CPU per create: Node ${one.node_cpu_us_per_create} µs, PostgreSQL ${one.postgres_backend_cpu_us_per_create} µs; overlaps: ${overlapping}; ` +
    `mail: ${mailWords(one.mail)}; creates with their mail sent: ${one.creates_with_mail_sent_per_second ?? 'not drained'}/s\n`,
);
