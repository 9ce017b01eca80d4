// Benchmark of issue 2: GET /v1/bookings/:uid on SQLite, with authentication
// and rate limiting on (limits raised by the workspace), against a bare
// node:http server answering a JSON body of the same size, in the same run.
// Both servers are single processes on loopback; autocannon drives each in turn.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, startProcess, writeOneBookingWorkspace } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// BENCH_SCHEDULE_BIN runs another build (an older commit's) under the same load, for before/after.
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(here, '../../cli/dist/bin.js');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const { dir, workspacePath, secret, uid } = writeOneBookingWorkspace();

const dbFile = join(dir, 'bench.db');
const schedule = await startProcess([bin, 'serve', '--workspace', workspacePath, '--db', dbFile, '--port', '0']);
const target = `${schedule.url}/v1/bookings/${uid}`;
const headers = { authorization: `Bearer ${secret}` };
const probe = await fetch(target, { headers });
if (probe.status !== 200) throw new Error(`probe answered ${probe.status}: ${await probe.text()}`);
const bodySize = (await probe.arrayBuffer()).byteLength;
const bare = await startProcess([resolve(here, 'bare-server.mjs'), String(bodySize)]);
const floor = await startProcess([resolve(here, 'sqlite-floor-server.mjs'), dbFile, uid]);

// Warm each up (JIT, statement cache), then measure each in turn.
await load(bare.url, { seconds: 2 });
await load(floor.url, { seconds: 2 });
await load(target, { headers, seconds: 2 });
const baseline = await load(bare.url, { seconds });
const sqliteFloor = await load(floor.url, { seconds });
const measured = await load(target, { headers, seconds });
await Promise.all([schedule.stop(), bare.stop(), floor.stop()]);
rmSync(dir, { recursive: true, force: true });

const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
const report = {
  benchmark: 'GET /v1/bookings/:uid (SQLite, auth + rate limit) vs bare node:http',
  body_bytes: bodySize,
  seconds,
  bare: baseline,
  sqlite_point_read_over_bare_http: sqliteFloor,
  schedule: measured,
  ratio: Math.round(ratio * 1000) / 1000,
  ratio_to_sqlite_floor: Math.round((measured.requestsPerSecond / sqliteFloor.requestsPerSecond) * 1000) / 1000,
  target_ratio: 0.5,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/get-booking.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `GET /v1/bookings/:uid: ${measured.requestsPerSecond} req/s vs bare ${baseline.requestsPerSecond} req/s = ${(ratio * 100).toFixed(1)}% (target 50%); ` +
    `the SQLite read alone over bare node:http: ${sqliteFloor.requestsPerSecond} req/s\n`,
);
