import { startServing } from '@schedule/cli';
import type { Clock } from '@schedule/core';
import type { TestServer } from './serve.js';

// HTTP contract tests need the server, not a process: they start the very
// server `schedule serve` runs (the CLI's own startServing) inside the test
// process, which saves a process start per server and lets the test hold the
// clock. Tests of process behaviour (exit codes, signals, stdout, crashes,
// several processes on one database) keep the binary: serve.ts.

/**
 * The server's clock: the real time, which a test may move. It keeps ticking
 * (updated_at must move between two writes, as it does in the binary); a
 * test that needs time to stand still passes a `manualClock` instead.
 */
export interface MovableClock extends Clock {
  /** From now on, the time reads `epochMs` plus the real time since. */
  set(epochMs: number): void;
  advance(ms: number): void;
}

/** A MovableClock at the real time. */
export function movableClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    set(epochMs) {
      offsetMs = epochMs - Date.now();
    },
    advance(ms) {
      offsetMs += ms;
    },
  };
}

/**
 * Starts what `schedule serve --port 0 --workspace … --db …` starts, on
 * 127.0.0.1 in this process: the same environment the binary would get
 * (LOG_LEVEL=warn unless `env` says otherwise), the clock given (else the
 * real time: a test that moves time passes its own movableClock or
 * manualClock), and the log kept in memory as the binary's stderr.
 */
export async function startInProcess(
  options: { workspace?: string; db?: string; clock?: Clock },
  env: Record<string, string> = {},
): Promise<TestServer> {
  let stderr = '';
  const serving = await startServing(
    { workspace: options.workspace, db: options.db, port: '0', host: '127.0.0.1' },
    {
      clock: options.clock ?? movableClock(),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      logTo: {
        write: (line: string) => {
          stderr += line;
        },
      },
    },
  );
  let stopped: Promise<number> | undefined;
  return {
    url: serving.http.url,
    // Nothing in process writes the binary's stdout (its `listening on` line).
    output: () => ({ stdout: '', stderr }),
    stop: () => {
      stopped ??= (async () => {
        const closing = serving.close();
        // A test's stop is teardown: a client's open stream (an MCP session's GET) must not hold it for the keep-alive timeout.
        serving.http.server.closeAllConnections();
        await closing;
        return 0;
      })();
      return stopped;
    },
  };
}
