// Benchmark of issue 32: a configuration change made through one server
// process is seen by slots on a second process on the same PostgreSQL
// schema within 1 s. Each round changes the event type's duration through
// process one (PATCH with If-Match), then asks process two for slots until
// the slots' length says the new duration; the time from the PATCH's answer
// to the first such answer is the round's delay. The floor, in the same run,
// is one plain GET /v1/slots on process two: with no cache between the
// database and availability, the delay should be that one request.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSchema, closeQueries, postgresReachable, startServe } from './postgres-support.mjs';
import { startProcess, writeBenchWorkspace } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
/** The promise: visible on the second process within this many milliseconds. */
const BOUND_MS = 1000;

if (!(await postgresReachable())) {
  process.stdout.write('config-visible: no PostgreSQL reachable (BENCH_POSTGRES_URL); skipped\n');
  process.exit(0);
}

const secret = 'pat_bench_config_0123456789';
const eventTypeId = '7c0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
const { dir, workspacePath } = writeBenchWorkspace({
  users: [{ username: 'host', email: 'host@bench.test', name: 'Bench Host', timezone: 'UTC', role: 'owner' }],
  event_types: [{ id: eventTypeId, owner: 'host', slug: 'call', name: 'Call', duration_minutes: 30, future_limit_days: 30 }],
  tokens: [{ name: 'bench', user: 'host', secret, scopes: ['slots:read', 'event_types:write'] }],
});

const headers = { authorization: `Bearer ${secret}` };
/** Tomorrow's UTC day: inside the future limit and past any notice. */
const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const slotsPath = `/v1/slots?event_type_id=${eventTypeId}&start=${day}T00:00:00Z&end=${day}T23:59:00Z`;

/** The duration, in minutes, that the slots on `url` show (their first slot's length). */
async function shownDuration(url) {
  const res = await fetch(`${url}${slotsPath}`, { headers });
  if (res.status !== 200) throw new Error(`slots answered ${res.status}: ${await res.text()}`);
  const body = await res.json();
  const first = body.data.slots[0];
  if (!first) throw new Error(`no slots on ${day}: ${JSON.stringify(body)}`);
  return (Date.parse(first.end) - Date.parse(first.start)) / 60_000;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const schema = benchSchema('config');
let delays = [];
let floors = [];
try {
  const one = await startServe(startProcess, [bin, 'serve', '--workspace', workspacePath, '--db', schema.url, '--port', '0']);
  const two = await startServe(startProcess, [bin, 'serve', '--workspace', workspacePath, '--db', schema.url, '--port', '0']);
  try {
    let version = Number((await fetch(`${one.url}/v1/event-types/${eventTypeId}`, { headers })).headers.get('etag')?.replaceAll('"', ''));
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      await shownDuration(two.url);
      floors.push(performance.now() - started);

      const duration = round % 2 === 0 ? 45 : 30;
      const patch = await fetch(`${one.url}/v1/event-types/${eventTypeId}`, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/json', 'if-match': `"${version}"` },
        body: JSON.stringify({ duration_minutes: duration }),
      });
      if (patch.status !== 200) throw new Error(`PATCH answered ${patch.status}: ${await patch.text()}`);
      version = Number(patch.headers.get('etag')?.replaceAll('"', ''));
      const changed = performance.now();
      for (;;) {
        if ((await shownDuration(two.url)) === duration) break;
        if (performance.now() - changed > 10 * BOUND_MS) throw new Error(`round ${round}: not visible after 10 s`);
      }
      delays.push(performance.now() - changed);
    }
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
} finally {
  await schema.drop();
  await closeQueries();
  rmSync(dir, { recursive: true, force: true });
}

delays = delays.sort((a, b) => a - b);
floors = floors.sort((a, b) => a - b);
const round1 = (ms) => Math.round(ms * 10) / 10;
const report = {
  benchmark: 'PATCH /v1/event-types/:id on process one until GET /v1/slots on process two shows it (PostgreSQL)',
  rounds: ROUNDS,
  load_average_1m: Math.round(loadavg()[0] * 100) / 100,
  visible_after_ms: { p50: round1(percentile(delays, 50)), p99: round1(percentile(delays, 99)), max: round1(delays.at(-1)) },
  floor_one_slots_request_ms: { p50: round1(percentile(floors, 50)), max: round1(floors.at(-1)) },
  ratio_p50_to_floor: Math.round((percentile(delays, 50) / percentile(floors, 50)) * 100) / 100,
  bound_ms: BOUND_MS,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/config-visible.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
if (delays.at(-1) > BOUND_MS) {
  process.stdout.write(`config-visible: a change took ${round1(delays.at(-1))} ms to be seen, over the ${BOUND_MS} ms bound\n`);
  process.exit(1);
}
