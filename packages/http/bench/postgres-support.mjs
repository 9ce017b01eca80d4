// What the PostgreSQL benches share: the server to use, a schema of their
// own, PostgreSQL's own pgbench as the ceiling, and CPU time read from /proc
// for the Node processes and for the PostgreSQL backends that served them.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The server the benches use; the tests' own by default. */
export const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when PostgreSQL answers; a bench without it says so and skips. */
export async function postgresReachable() {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

// One small pool for the benches' own statements (setup, checks, sampling
// pg_stat_activity), kept apart from what is measured by application_name.
let admin;

/** Runs SQL on the benches' own pool. */
export async function query(sqlText, values = []) {
  admin ??= new pg.Pool({ connectionString: postgresUrl, max: 2, connectionTimeoutMillis: 5000, application_name: 'bench_admin' });
  return (await admin.query(sqlText, values)).rows;
}

/** Closes the benches' own pool, so the bench process can exit. */
export async function closeQueries() {
  await admin?.end();
  admin = undefined;
}

/**
 * A fresh schema for one bench, named so that its backends can be found in
 * pg_stat_activity (`application_name`); `url` is what `--db` takes.
 */
export function benchSchema(label) {
  const name = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', name);
  url.searchParams.set('application_name', name);
  return { name, url: url.toString(), drop: () => query(`drop schema if exists ${name} cascade`) };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU of a process so far, in µs; undefined once it is gone. */
function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (proc(5)); here 0-based from state.
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Samples the CPU of a changing set of processes (the backends of one
 * application_name come and go with the pool) until stopped: each counts
 * from its first sample, and one first seen after the start counts whole,
 * since it began during the run.
 */
export function cpuMeter(listPids) {
  const first = new Map();
  const last = new Map();
  let started = false;
  const sample = async () => {
    const pids = await listPids();
    for (const pid of pids) {
      const used = cpuMicros(pid);
      if (used === undefined) continue;
      if (!first.has(pid)) first.set(pid, started ? 0 : used);
      last.set(pid, used);
    }
    started = true;
  };
  const total = () => {
    let sum = 0;
    for (const [pid, from] of first) sum += (last.get(pid) ?? from) - from;
    return sum;
  };
  let timer;
  let stopped = false;
  const tick = async () => {
    await sample().catch(() => {});
    if (!stopped) timer = setTimeout(tick, 100);
  };
  const ready = sample().then(() => {
    timer = setTimeout(tick, 100);
  });
  return {
    ready,
    /** The CPU so far, metering on. */
    async read() {
      await sample().catch(() => {});
      return total();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await sample().catch(() => {});
      return total();
    },
  };
}

/** The PostgreSQL backends serving one application_name. */
export const backendsOf = (applicationName) => async () =>
  (await query('select pid from pg_stat_activity where application_name = $1', [applicationName])).map((r) => r.pid);

function pgbenchBinary() {
  const dir = '/usr/lib/postgresql';
  const versions = existsSync(dir) ? readdirSync(dir).sort().reverse() : [];
  const found = versions.map((v) => `${dir}/${v}/bin/pgbench`).find((p) => existsSync(p));
  return found ?? 'pgbench';
}

/**
 * PostgreSQL's own benchmark on the same server, in a database of its own:
 * `pgbench -N` (a simple-update transaction: three statements and a commit)
 * with `clients` clients for `seconds`, and the CPU its backends used per
 * transaction. The database is dropped afterwards.
 */
export async function pgbenchSimpleUpdate({ clients, seconds }) {
  const bin = pgbenchBinary();
  const database = `bench_pgbench_${randomBytes(4).toString('hex')}`;
  const url = new URL(postgresUrl);
  const env = { ...process.env, PGHOST: url.hostname, PGPORT: url.port || '5432', PGUSER: decodeURIComponent(url.username || 'postgres') };
  await query(`create database ${database}`);
  try {
    await run(bin, ['-i', '-q', '-s', '1', database], { env });
    const meter = cpuMeter(async () =>
      (await query('select pid from pg_stat_activity where datname = $1 and application_name = $2', [database, 'pgbench'])).map(
        (r) => r.pid,
      ),
    );
    await meter.ready;
    const { stdout } = await run(bin, ['-N', '-n', '-c', String(clients), '-j', '2', '-T', String(seconds), database], { env });
    const backendMicros = await meter.stop();
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1]);
    return {
      tps: Math.round(tps),
      transactions,
      postgres_backend_cpu_us_per_tx: transactions > 0 ? Math.round(backendMicros / transactions) : null,
    };
  } finally {
    await query(`drop database if exists ${database} with (force)`);
  }
}

/** CPU of our own Node processes, by pid. */
export function processMeter(pids) {
  return cpuMeter(async () => pids);
}

/**
 * Starts `schedule serve` on PostgreSQL, trying up to three times: on a
 * shared server, start-up can fail for reasons outside the run (another
 * client dropping its schema while ours migrates, a statement timing out).
 */
export async function startServe(startProcess, args, env) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProcess(args, env);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
