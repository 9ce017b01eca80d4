// Benchmark of issue 34: booking through a hold (POST /v1/holds, then POST
// /v1/bookings with its hold_id: two calls) against a direct booking (one
// call), in the same run, on SQLite and on PostgreSQL. Each flow books a
// run of free slots through 8 clients at once; rounds alternate so that a
// busy machine slows both alike. The promise: a held booking costs at most
// 1.6 times a direct one.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSchema, closeQueries, postgresReachable, startServe } from './postgres-support.mjs';
import { startProcess, writeBenchWorkspace } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const MEETINGS = Number(process.env.BENCH_HOLD_MEETINGS ?? 600);
const ROUNDS = 3;
const CLIENTS = 8;
const TARGET_RATIO = 1.6;
const secret = 'pat_bench_hold_0123456789';
const eventTypeId = '7e57a1a0-0000-4000-8000-0000000000d1';
const QUARTER = 15 * 60_000;
const firstSlot = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;

const { dir, workspacePath } = writeBenchWorkspace({
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
});

let slot = 0;
let key = 0;
async function post(url, path, body) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': `bench-${key++}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text).data;
}

const FLOWS = {
  direct: async (url) => {
    const start = new Date(firstSlot + slot++ * QUARTER).toISOString();
    await post(url, '/v1/bookings', { event_type_id: eventTypeId, start, attendee: { email: 'guest@example.com' } });
  },
  held: async (url) => {
    const start = new Date(firstSlot + slot++ * QUARTER).toISOString();
    const hold = await post(url, '/v1/holds', { event_type_id: eventTypeId, start });
    await post(url, '/v1/bookings', { event_type_id: eventTypeId, start, hold_id: hold.id, attendee: { email: 'guest@example.com' } });
  },
};

/** Milliseconds per meeting booked by `flow`, CLIENTS at a time. */
async function timeFlow(url, flow, meetings) {
  let left = meetings;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (left-- > 0) await FLOWS[flow](url);
    }),
  );
  return (performance.now() - started) / meetings;
}

async function measure(db) {
  const server = await startServe(startProcess, [bin, 'serve', '--workspace', workspacePath, '--db', db, '--port', '0'], {
    LOG_LEVEL: 'warn',
  });
  try {
    // Warm up both paths (prepared statements, JIT) before timing.
    await timeFlow(server.url, 'direct', 100);
    await timeFlow(server.url, 'held', 100);
    const per = { direct: [], held: [] };
    for (let round = 0; round < ROUNDS; round++) {
      per.direct.push(await timeFlow(server.url, 'direct', MEETINGS));
      per.held.push(await timeFlow(server.url, 'held', MEETINGS));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const direct = median(per.direct);
    const held = median(per.held);
    return { direct_ms_per_meeting: round3(direct), held_ms_per_meeting: round3(held), ratio: round3(held / direct) };
  } finally {
    await server.stop();
  }
}
const round3 = (x) => Math.round(x * 1000) / 1000;

const sqlite = await measure(join(dir, 'bench.db'));
let postgres = null;
if (await postgresReachable()) {
  const schema = benchSchema('hold');
  try {
    postgres = await measure(schema.url);
  } finally {
    await schema.drop();
    await closeQueries();
  }
}
rmSync(dir, { recursive: true, force: true });

const report = {
  benchmark: `hold then book (two calls) vs a direct booking (one call), ${CLIENTS} clients, ${ROUNDS} rounds of ${MEETINGS} meetings, median`,
  sqlite,
  postgres,
  target_ratio_at_most: TARGET_RATIO,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/hold-then-book.json'), `${JSON.stringify(report, null, 2)}\n`);
const line = (name, r) => (r ? `${name} ${r.held_ms_per_meeting} vs ${r.direct_ms_per_meeting} ms = ${r.ratio}x` : `${name} skipped`);
process.stdout.write(`hold then book: ${line('SQLite', sqlite)}; ${line('PostgreSQL', postgres)} (target ≤ ${TARGET_RATIO}x)\n`);
for (const r of [sqlite, postgres]) if (r && r.ratio > TARGET_RATIO) process.exitCode = 1;
