import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { SCHEDULE_BIN, tempDir } from './serve.js';

// The `schedule` binary run the way a script runs it: stdin a pipe that is
// closed at once (not a TTY, and a prompt would read end of file), stdout and
// stderr pipes (not TTYs). Every run is checked for ANSI escapes, so no run
// of the CLI suites may ever print a colour code when piped.

/** How one `schedule` invocation ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export type CliEnv = Record<string, string | undefined>;

let dataHome: string | undefined;

/**
 * The environment every run starts from: this process's, minus what would
 * choose a mode, a token or a colour for the CLI, with a terminal type that
 * supports colour (so only the pipe decides), and a data directory of its
 * own (so the embedded default database never lands in the real one).
 */
export function baseEnv(): CliEnv {
  dataHome ??= tempDir('schedule-cli-data-');
  const env: CliEnv = { ...process.env };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'SCHEDULE_TOKEN', 'SCHEDULE_API_URL', 'DATABASE_URL', 'CI']) delete env[name];
  return { ...env, TERM: 'xterm-256color', XDG_DATA_HOME: dataHome, LOG_LEVEL: 'warn', CONFERENCE_BASE_URL: 'https://meet.test' };
}

/** The ANSI escape character: no piped run may print it, on stdout or stderr. */
export const ESC = '\u001b';

export interface CliOptions {
  /** Values of undefined remove the variable. */
  env?: CliEnv;
  cwd?: string;
  /**
   * Leave stdin open (a pipe nobody writes to) instead of closing it: a
   * command that waited for an answer would then never exit, and the test
   * would time out.
   */
  stdinOpen?: boolean;
  /** Written to stdin first (then closed, unless `stdinOpen`): a password piped in, say. */
  input?: string;
}

/** Runs `schedule <args>` to its exit. Resolves after the output streams closed, so both are complete. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const merged = { ...baseEnv(), ...options.env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, [SCHEDULE_BIN, ...args], {
    env: merged as NodeJS.ProcessEnv,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin.write(options.input);
  if (!options.stdinOpen) child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      child.stdin.destroy();
      try {
        // Piped output never carries colour (issue 6, "Output").
        expect(stdout, `stdout of schedule ${args.join(' ')}`).not.toContain(ESC);
        expect(stderr, `stderr of schedule ${args.join(' ')}`).not.toContain(ESC);
        resolve({ code, stdout, stderr });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** A failure as the CLI prints it: nothing on stdout, one `error <code>: <message>` line on stderr, the exit code. */
export function failure(code: number, errorCode: string, message: string): CliRun {
  return { code, stdout: '', stderr: `error ${errorCode}: ${message}\n` };
}

/** A success: `stdout` exactly, nothing on stderr, exit 0. */
export function success(stdout: string): CliRun {
  return { code: 0, stdout, stderr: '' };
}

/** Tab-separated lines, as piped output prints them (no heading). */
export function tsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => `${row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))).join('\t')}\n`).join('');
}

/**
 * A single object as piped output prints it: one `key<TAB>value` line per
 * field in the API's order; null as nothing, arrays of strings joined with
 * commas, other objects and arrays as compact JSON.
 */
export function objectLines(value: Record<string, unknown>): string {
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(',');
    return JSON.stringify(v);
  };
  return tsv(Object.entries(value).map(([key, v]) => [key, cell(v)]));
}

/** Parses a run's stdout as the JSON `--json` prints; fails the test with the run when it is not JSON. */
export function jsonOf(run: CliRun): any {
  if (run.code !== 0) throw new Error(`expected exit 0, got ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
