// Benchmark of issue 18: GET /v1/bookings/:uid on PostgreSQL, with
// authentication and rate limiting on (limits raised by the workspace),
// against a bare node:http server doing the same point read through pg
// (postgres-floor-server.mjs), in the same run on the same schema.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSchema, closeQueries, postgresReachable, postgresUrl, startServe } from './postgres-support.mjs';
import { load, startProcess, writeOneBookingWorkspace } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// BENCH_SCHEDULE_BIN runs another build (an older commit's) under the same load, for before/after.
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const TARGET_RATIO = 0.5;

if (!(await postgresReachable())) {
  process.stdout.write('get-booking-postgres: no PostgreSQL reachable (BENCH_POSTGRES_URL); skipped\n');
  process.exit(0);
}

const { dir, workspacePath, secret, uid } = writeOneBookingWorkspace();

const schema = benchSchema('get');
let floorResult;
let measured;
try {
  const schedule = await startServe(startProcess, [bin, 'serve', '--workspace', workspacePath, '--db', schema.url, '--port', '0']);
  const floor = await startProcess([resolve(here, 'postgres-floor-server.mjs'), postgresUrl, schema.name, uid]);
  try {
    const target = `${schedule.url}/v1/bookings/${uid}`;
    const headers = { authorization: `Bearer ${secret}` };
    const probe = await fetch(target, { headers });
    if (probe.status !== 200) throw new Error(`probe answered ${probe.status}: ${await probe.text()}`);
    // Warm each up (JIT, pools, statement caches), then measure each in turn.
    await load(floor.url, { seconds: 2 });
    await load(target, { headers, seconds: 2 });
    floorResult = await load(floor.url, { seconds });
    measured = await load(target, { headers, seconds });
  } finally {
    await Promise.all([schedule.stop(), floor.stop()]);
  }
} finally {
  await schema.drop();
  await closeQueries();
  rmSync(dir, { recursive: true, force: true });
}

const ratio = measured.requestsPerSecond / floorResult.requestsPerSecond;
const report = {
  benchmark: 'GET /v1/bookings/:uid (PostgreSQL, auth + rate limit) vs bare node:http + pg point read',
  seconds,
  // The machine is shared: the load around the run says how far to trust its absolute numbers.
  load_average_1m: Math.round(loadavg()[0] * 100) / 100,
  postgres_point_read_over_bare_http: floorResult,
  schedule: measured,
  ratio_to_postgres_floor: Math.round(ratio * 1000) / 1000,
  target_ratio: TARGET_RATIO,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/get-booking-postgres.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `GET /v1/bookings/:uid on PostgreSQL: ${measured.requestsPerSecond} req/s vs the bare pg floor ${floorResult.requestsPerSecond} req/s = ${(ratio * 100).toFixed(1)}% (target ${TARGET_RATIO * 100}%)\n`,
);
