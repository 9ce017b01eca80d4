import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The built `schedule` binary as a black box: piped like a script, or on a
// real pseudo-terminal through util-linux `script`, driven key by key as
// its frames appear.

export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const RECORD_LOADS = fileURLToPath(new URL('./record-loads.mjs', import.meta.url));

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** This process's environment without what would pick a mode, a token or colours, with a data directory of its own. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'SCHEDULE_TOKEN', 'SCHEDULE_API_URL', 'DATABASE_URL', 'CI']) delete env[name];
  return { ...env, TERM: 'xterm-256color', XDG_DATA_HOME: tempDir('schedule-cli-data-'), LOG_LEVEL: 'warn', ...extra };
}

/** `schedule <args>` with stdin, stdout and stderr pipes (stdin closed at once), to its exit. */
export function runPiped(args: readonly string[], env: NodeJS.ProcessEnv = cleanEnv(), nodeArgs: readonly string[] = []): Promise<Run> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
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
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The files Node loaded for one piped run (through its ES module loader), and how it ended. */
export async function loadsOf(args: readonly string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<{ run: Run; loaded: string[] }> {
  const log = join(tempDir('schedule-loads-'), 'loads.txt');
  writeFileSync(log, '');
  const run = await runPiped(args, { ...env, LOAD_LOG: log }, ['--import', RECORD_LOADS]);
  return { run, loaded: readLoads(log) };
}

/** The files a run with $LOAD_LOG set to `log` loaded. */
export function readLoads(log: string): string[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url));
}

/**
 * Whether React (so ink, which needs it) was among the loaded files: its
 * package unbundled, or a bundled chunk holding React's element tag.
 */
export function loadedReact(files: readonly string[]): string[] {
  return files.filter(
    (file) =>
      /[\\/]node_modules[\\/](react|react-reconciler|ink)[\\/]/.test(file) ||
      readFileSync(file, 'utf8').includes('react.transitional.element'),
  );
}

// Escape sequences (CSI, OSC, and two-byte ones), built from their control characters.
const [ESC, BEL] = [String.fromCharCode(27), String.fromCharCode(7)];
const ANSI = new RegExp(`${ESC}(?:\\[[0-9;?<>=]*[ -/]*[@-~]|\\][^${BEL}]*${BEL}|[@-Z\\\\-_])`, 'g');

/** A `schedule` process on a pseudo-terminal of 100×40. */
export interface TtyRun {
  /** Everything drawn so far, escape sequences removed. */
  screen(): string;
  /** Resolves once the screen shows `text` (drawn after the last `type`), failing with the screen when the process ends first or the deadline passes. */
  waitFor(text: string, deadlineMs?: number): Promise<void>;
  /** Sends keys as the terminal would. */
  type(keys: string): void;
  /** Waits for `text`, then types `keys`: a person answering what they read. */
  answer(text: string, keys: string): Promise<void>;
  /** The exit code and everything drawn (stdout and stderr share the terminal). */
  exit: Promise<{ code: number | null; screen: string; raw: string }>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `schedule <args>` on a pseudo-terminal (stdin, stdout and stderr all TTYs). */
export function runOnTty(args: readonly string[], env: NodeJS.ProcessEnv, options: { recordLoads?: string } = {}): TtyRun {
  const node = [process.execPath, ...(options.recordLoads ? ['--import', RECORD_LOADS] : []), BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', `stty cols 100 rows 40; exec ${node}`, '/dev/null'], {
    env: options.recordLoads ? { ...env, LOAD_LOG: options.recordLoads } : env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let mark = 0;
  const waiters: { text: string; from: number; resolve(): void; reject(e: Error): void }[] = [];
  const clean = () => raw.replace(ANSI, '').replace(/\r/g, '');
  const check = () => {
    const screen = clean();
    for (const w of [...waiters]) {
      if (screen.indexOf(w.text, w.from) >= 0) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    check();
  });
  const exit = new Promise<{ code: number | null; screen: string; raw: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      for (const w of waiters.splice(0)) w.reject(new Error(`exited (${code}) before showing ${JSON.stringify(w.text)}:\n${clean()}`));
      resolve({ code, screen: clean(), raw });
    });
  });
  return {
    screen: clean,
    exit,
    waitFor(text, deadlineMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        // A deadline only to fail with what was on the screen, instead of a bare test timeout.
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${JSON.stringify(text)} within ${deadlineMs} ms; the screen after the last keys:\n${clean().slice(mark)}`));
        }, deadlineMs);
        const waiter = {
          text,
          from: mark,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          reject: (e: Error) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        waiters.push(waiter);
        check();
      });
    },
    type(keys) {
      mark = clean().length;
      child.stdin.write(keys);
    },
    async answer(text, keys) {
      await this.waitFor(text);
      this.type(keys);
    },
  };
}
