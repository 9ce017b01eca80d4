import { type ChildProcess, spawn } from 'node:child_process';
import { SCHEDULE_BIN, type ServerProcess, whenListening } from './serve.js';

// `schedule mcp` as a process: listening over HTTP, or expected to refuse to start.

const running = new Set<ChildProcess>();

/** Kills every `schedule mcp` child of this file still running (a test that failed midway); for afterAll. */
export function stopMcpProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function spawnMcp(args: readonly string[], env: Record<string, string | undefined>, stdin: 'pipe' | 'ignore'): ChildProcess {
  const child = spawn(process.execPath, [SCHEDULE_BIN, 'mcp', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * Starts `schedule mcp --http --port 0 <args>` and resolves once it prints
 * its `listening on` line (docs/workspace.md: the same line as `serve`).
 */
export function startMcpHttp(args: readonly string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  return whenListening(spawnMcp(['--http', '--port', '0', ...args], env, 'ignore'), 'schedule mcp --http');
}

export interface McpExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `schedule mcp <args>` (stdio) and resolves with how it ended. Without
 * `input` its stdin stays open, as an MCP client holds it, so the process
 * ends only by its own decision; with `input` that is written and stdin
 * closed (how an MCP client ends a stdio session). `env` values of
 * undefined remove the variable.
 */
export function runMcpToExit(args: readonly string[], env: Record<string, string | undefined>, input?: string): Promise<McpExit> {
  const child = spawnMcp(args, env, 'pipe');
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  // 'close' comes after the output streams ended, so both are complete.
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * SIGKILL and the exit, for a server whose shutdown is not under test. Not
 * SIGTERM: after a Streamable HTTP client disconnects, a graceful stop often
 * waits out the 5 s keep-alive timeout (see the SIGTERM tests in
 * mcp-http.test.ts), which would only slow the suite down.
 */
export function killServer(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}
