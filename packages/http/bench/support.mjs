import { spawn } from 'node:child_process';
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
