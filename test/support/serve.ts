import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The real `schedule` binary, as built by `npm run build`. */
export const SCHEDULE_BIN = resolve(here, '../../packages/cli/dist/bin.js');

/** A `schedule serve` a test drives over HTTP: the real binary, or the same server in process (in-process.ts). */
export interface TestServer {
  readonly url: string;
  /** Everything the server wrote to stdout and stderr (its log) so far. */
  output(): { stdout: string; stderr: string };
  /** Stops it; then the exit code (0 for a clean stop). */
  stop(): Promise<number | null>;
}

/** The real binary: stop() sends SIGTERM. */
export interface ServerProcess extends TestServer {
  readonly child: ChildProcess;
}

const made: string[] = [];

/** Removes every directory `tempDir` made; the setup file runs it after each test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary directory, removed after the test file that made it. */
export function tempDir(prefix = 'schedule-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes a workspace object to a fresh temporary file and returns its path. */
export function writeWorkspace(workspace: unknown): string {
  const dir = tempDir();
  const path = join(dir, 'workspace.json');
  writeFileSync(path, JSON.stringify(workspace, null, 2));
  return path;
}

/**
 * Resolves once a spawned `schedule` child prints its `listening on` line
 * (`serve`, `mcp --http`); rejects if it exits first.
 */
export function whenListening(child: ChildProcess, command: string): Promise<ServerProcess> {
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolvePromise, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) {
        resolvePromise({
          url: m[1]!,
          child,
          output: () => ({ stdout, stderr }),
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done(child.exitCode);
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code} before listening:\n${stderr}`)));
  });
}

/**
 * Starts `schedule serve --port 0` and resolves once it prints its
 * `listening on` line: the way docs/workspace.md says black-box tests drive it.
 */
export function startServer(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SCHEDULE_BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return whenListening(child, 'schedule serve');
}

/** How a `schedule serve` run that was expected to fail ended. */
export interface FailedRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when it started listening instead of exiting (it is then stopped). */
  readonly listened: boolean;
}

/** Runs `schedule serve --port 0` expecting it to exit before it listens. */
export function runServeToExit(args: string[], env: Record<string, string> = {}): Promise<FailedRun> {
  const child = spawn(process.execPath, [SCHEDULE_BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let listened = false;
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
    if (!listened && stdout.includes('listening on')) {
      listened = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise((resolvePromise) => {
    // 'close' comes after the output streams ended, so stderr is complete.
    child.once('close', (code) => resolvePromise({ code, stdout, stderr, listened }));
  });
}
