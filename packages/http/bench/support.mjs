import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** Starts a process and resolves with its URL and pid once it prints `listening on`. */
export function startProcess(args, env = {}) {
  // Request logs go nowhere, as on a server whose stderr is collected elsewhere.
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        const stop = () =>
          new Promise((done) => {
            child.once('exit', done);
            child.kill('SIGTERM');
          });
        resolve({ url: m[1], pid: child.pid, stop });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** Runs autocannon against one URL and returns requests per second and latency percentiles. */
export async function load(url, { headers = {}, seconds = 10, connections = 32 } = {}) {
  const result = await autocannon({ url, headers, duration: seconds, connections, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`load on ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
  };
}

/**
 * Writes a workspace file holding `sections` in a new temporary folder, with
 * rate limits no bench reaches (a bench measures the server, not its
 * limiter). Returns the folder (to remove afterwards) and the file's path.
 */
export function writeBenchWorkspace(sections) {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-'));
  const workspacePath = join(dir, 'workspace.json');
  writeFileSync(
    workspacePath,
    JSON.stringify({
      organization: { name: 'Bench' },
      limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
      ...sections,
    }),
  );
  return { dir, workspacePath };
}

/**
 * A workspace with one host, one event type, a read token and one booking:
 * what the GET benches read. Returns its folder (to remove afterwards), its
 * path, the token and the booking's uid.
 */
export function writeOneBookingWorkspace() {
  const secret = 'pat_bench_secret_0123456789';
  const uid = '5a1e7c3b-2d4f-4a6b-8c9d-0e1f2a3b4c5d';

  const { dir, workspacePath } = writeBenchWorkspace({
    users: [{ username: 'host', email: 'host@bench.test', name: 'Bench Host', timezone: 'Europe/Berlin', role: 'owner' }],
    event_types: [{ owner: 'host', slug: 'call', name: 'Call', duration_minutes: 30 }],
    tokens: [{ name: 'bench', user: 'host', secret, scopes: ['bookings:read'] }],
    bookings: [
      {
        uid,
        event_type: 'call',
        start: '2030-01-07T09:00:00Z',
        attendee: { email: 'guest@example.com', name: 'Guest', timezone: 'UTC' },
        responses: { topic: 'Benchmarks' },
        metadata: { utm_source: 'bench' },
      },
    ],
  });
  return { dir, workspacePath, secret, uid };
}
