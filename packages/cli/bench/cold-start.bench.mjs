// Benchmark of issue 6: cold start of `schedule --version` and of
// `schedule bookings list --json` (embedded, a small SQLite database), beside
// `node -e 0` in the same run. Each sample is one whole process, spawned and
// waited for; the median of RUNS is reported with the ratio to bare node.
// Target: within 4x of bare node. Build first: `npx turbo run build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../dist/bin.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const secret = 'pat_bench_cold_0123456789';

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-cli-'));
const db = join(dir, 'small.db');
const workspace = join(dir, 'workspace.json');
const start = Date.now() + 86_400_000;
writeFileSync(
  workspace,
  JSON.stringify({
    users: [{ username: 'host', email: 'host@bench.test', role: 'owner', timezone: 'UTC' }],
    event_types: [{ owner: 'host', slug: 'call', name: 'Call', duration_minutes: 30 }],
    tokens: [{ name: 'bench', user: 'host', secret, scopes: ['bookings:read'] }],
    bookings: Array.from({ length: 20 }, (_, i) => ({
      event_type: 'call',
      start: new Date(start + i * 3_600_000).toISOString(),
      attendee: { email: `g${i}@example.com`, name: `G ${i}` },
    })),
  }),
);
// Load the workspace once, so the timed runs only read.
execFileSync(process.execPath, [bin, 'whoami', '--workspace', workspace, '--db', db], { env: { ...process.env, SCHEDULE_TOKEN: secret } });

function median(args, env = {}) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const run = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    samples.push(performance.now() - t);
    if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)] * 10) / 10;
}

const bare = median(['-e', '0']);
const version = median([bin, '--version']);
const list = median([bin, 'bookings', 'list', '--json', '--db', db], { SCHEDULE_TOKEN: secret });
rmSync(dir, { recursive: true, force: true });

const ratio = (x) => Math.round((x / bare) * 100) / 100;
const report = {
  benchmark: 'CLI cold start, median of whole process runs',
  runs: RUNS,
  node_e_0_ms: bare,
  schedule_version_ms: version,
  schedule_bookings_list_json_ms: list,
  ratio_version: ratio(version),
  ratio_bookings_list: ratio(list),
  target_ratio: 4,
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/cli-cold-start.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
