import { spawn, spawnSync } from 'node:child_process';
import { baseEnv, type CliEnv } from './cli-run.js';
import { SCHEDULE_BIN } from './serve.js';

// The `schedule` binary as a person at a terminal runs it: stdin, stdout and
// stderr a pseudo-terminal lent by util-linux `script`. For commands that end
// on their own, or that ask questions a run answers as they appear
// (`answers`), as a person types after reading the question.

/** Whether `script` can lend a pseudo-terminal here; suites that need one skip without it. */
export const HAS_SCRIPT = spawnSync('script', ['-V']).status === 0;

/** How a run on a terminal ended: stdout and stderr share the screen. */
export interface TtyRun {
  readonly code: number | null;
  /** What was drawn, escape sequences and carriage returns removed. */
  readonly screen: string;
  /** What was drawn, as written (to look for colour codes). */
  readonly raw: string;
}

const [ESC, BEL] = [String.fromCharCode(27), String.fromCharCode(7)];
const ANSI = new RegExp(`${ESC}(?:\\[[0-9;?<>=]*[ -/]*[@-~]|\\][^${BEL}]*${BEL}|[@-Z\\\\-_])`, 'g');
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Keys typed once `after` has appeared on the screen (after the previous answer's question). */
export interface TtyAnswer {
  readonly after: string;
  readonly keys: string;
}

/** Runs `schedule <args>` on a 120-column pseudo-terminal to its exit. */
export function runCliOnTty(args: readonly string[], options: { env?: CliEnv; answers?: readonly TtyAnswer[] } = {}): Promise<TtyRun> {
  const env = { ...baseEnv(), ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const command = [process.execPath, SCHEDULE_BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', `stty cols 120 rows 40; exec ${command}`, '/dev/null'], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  const answers = [...(options.answers ?? [])];
  let answeredUpTo = 0;
  const answer = () => {
    const screen = raw.replace(ANSI, '');
    const next = answers[0];
    const at = next ? screen.indexOf(next.after, answeredUpTo) : -1;
    if (!next || at < 0) return;
    answers.shift();
    answeredUpTo = at + next.after.length;
    child.stdin.write(next.keys);
    answer();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    answer();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    answer();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, screen: raw.replace(ANSI, '').replace(/\r/g, ''), raw }));
  });
}
