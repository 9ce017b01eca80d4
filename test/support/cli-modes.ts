import { join } from 'node:path';
import { expect } from 'vitest';
import { type CliEnv, type CliRun, runCli } from './cli-run.js';
import { runCliOnTty, type TtyAnswer, type TtyRun } from './cli-tty.js';
import { api, expectData, expectPage } from './http.js';
import { startInProcess } from './in-process.js';
import { type TestServer, tempDir, writeWorkspace } from './serve.js';

// Issue 6: "Same output, same errors, same exit codes in both [modes]". Each
// CLI suite runs its commands twice, on twin databases loaded from the same
// workspace: embedded (`--db FILE`, the workspace loaded once by the CLI
// itself with --workspace) and remote (`--api-url` of a `schedule serve` on
// the other file). A second `schedule serve` on the embedded file only reads,
// so that what an embedded command printed can be compared with the HTTP
// API's `data` for the same database. The CLI runs as the binary; the two
// servers run in the test's process (in-process.ts), the server the binary runs.

export type ModeName = 'embedded' | 'remote';
export const MODE_NAMES: readonly ModeName[] = ['embedded', 'remote'];

/** Series a CLI creates carry this source: the CLI acts as a host in embedded mode, and calls the API in remote mode. */
export const SOURCE_OF: Record<ModeName, string> = { embedded: 'internal', remote: 'api' };

export interface RunOptions {
  /** SCHEDULE_TOKEN for the run: the suite's token by default, null for none. */
  token?: string | null;
  env?: CliEnv;
  /** See `CliOptions.stdinOpen`. */
  stdinOpen?: boolean;
}

/** One way of running the CLI, with a server on its database to check results over HTTP. */
export interface CliMode {
  readonly name: ModeName;
  /** The SQLite file behind this mode. */
  readonly db: string;
  /** The base URL of a `schedule serve` on `db`. */
  readonly api: string;
  /** `--db FILE` or `--api-url URL`. */
  readonly args: readonly string[];
  /** `schedule <args> <mode args>`. */
  run(args: readonly string[], options?: RunOptions): Promise<CliRun>;
  /** The same on a pseudo-terminal (cli-tty.ts), as a person runs it. */
  runOnTty(args: readonly string[], options?: Omit<RunOptions, 'stdinOpen'> & { answers?: readonly TtyAnswer[] }): Promise<TtyRun>;
  /** GET `path` over HTTP on this mode's database as the suite's token: the `data` of the answer. */
  get(path: string, token?: string): Promise<any>;
  /** Every item of a list over HTTP, following `next_cursor` (`path` has a `?`). */
  getAll(path: string, token?: string): Promise<any[]>;
  /** The text with generated uids, write times, the mode and the series source replaced by placeholders. */
  normalize(text: string): string;
}

export type PerMode<T> = Record<ModeName, T>;

export interface CliModes extends PerMode<CliMode> {
  /** Runs the command in both modes at once (their databases are apart); `args` may name each mode's own uids. */
  both(args: readonly string[] | ((mode: CliMode) => readonly string[]), options?: RunOptions): Promise<PerMode<CliRun>>;
  stop(): Promise<void>;
}

const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Fields holding the instant of a write: they differ between two databases, so only their presence is compared. */
const WRITE_TIME =
  /\b(created_at|updated_at|cancelled_at|ended_at|computed_at|revoked_at|last_used_at)(\t|": ")(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)/g;

function normalizerFor(name: ModeName, fixed: ReadonlySet<string>, serverUrl: string): (text: string) => string {
  const labels = new Map<string, string>();
  const source = new RegExp(`\\bsource(\\t|": ")${SOURCE_OF[name]}\\b`, 'g');
  return (text) =>
    text
      // Each mode's server listens on a port of its own: a booking_url differs by that alone.
      .replaceAll(serverUrl, '<server>')
      .replace(WRITE_TIME, (_, key: string, sep: string) => `${key}${sep}<written>`)
      .replace(/^mode: (embedded|remote)$/gm, (line, mode) => (mode === name ? 'mode: <mode>' : line))
      // A cursor encodes the last uid shown, which differs between the twin databases.
      .replace(/^more: pass --cursor \S+ or --all$/gm, 'more: pass --cursor <cursor> or --all')
      .replace(source, (_, sep: string) => `source${sep}<source>`)
      .replace(UUID_G, (uid) => {
        if (fixed.has(uid)) return uid;
        if (!labels.has(uid)) labels.set(uid, `<uid ${labels.size + 1}>`);
        return labels.get(uid)!;
      });
}

function httpReader(baseUrl: string, defaultToken: string) {
  return {
    get: async (path: string, token = defaultToken) => expectData(await api(baseUrl, path, { token })),
    getAll: async (path: string, token = defaultToken) => {
      const items: any[] = [];
      let cursor: string | null = null;
      do {
        const page = expectPage(await api(baseUrl, `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token }));
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return items;
    },
  };
}

const SERVER_ENV = {
  CONFERENCE_BASE_URL: 'https://meet.test',
  // No mail goes out while a suite runs: embedded mode has no dispatcher, so neither side holds a series to send.
  MAIL_DISPATCH_MS: '3600000',
  // Nor webhooks: a queued test delivery stays as queued, for both modes to print alike.
  WEBHOOK_DELIVERY: '0',
  // A token revoked on the database stops working at once on the server too.
  TOKEN_CACHE_MS: '0',
};

/**
 * Loads `workspace` into two fresh SQLite files, one through
 * `schedule whoami --workspace` (embedded), one through
 * `schedule serve --workspace` (remote), and starts the reading server on
 * the embedded one. `token` is the SCHEDULE_TOKEN of every run unless a run
 * says otherwise.
 */
export async function startCliModes(workspace: Record<string, unknown>, token: string): Promise<CliModes> {
  const file = writeWorkspace(workspace);
  const dir = tempDir('schedule-cli-');
  const dbs: PerMode<string> = { embedded: join(dir, 'embedded.db'), remote: join(dir, 'remote.db') };
  const servers: TestServer[] = [];
  const fixed = new Set(JSON.stringify(workspace).match(UUID_G) ?? []);

  const [loaded, remoteServer] = await Promise.all([
    runCli(['whoami', '--workspace', file, '--db', dbs.embedded], { env: { SCHEDULE_TOKEN: token } }),
    startInProcess({ workspace: file, db: dbs.remote }, SERVER_ENV),
  ]);
  servers.push(remoteServer);
  if (loaded.code !== 0) throw new Error(`schedule whoami --workspace failed: ${loaded.stderr}`);
  const embeddedServer = await startInProcess({ db: dbs.embedded }, SERVER_ENV);
  servers.push(embeddedServer);

  // An embedded CLI is told where its deployment serves booking pages (PUBLIC_URL), as an operator
  // running it beside a server would: its event types then show the same booking_url the server does.
  const mode = (name: ModeName, server: TestServer, args: readonly string[]): CliMode => ({
    name,
    db: dbs[name],
    api: server.url,
    args,
    run: (command, options = {}) => {
      const secret = options.token === undefined ? token : options.token;
      const env = { SCHEDULE_TOKEN: secret ?? undefined, ...(name === 'embedded' ? { PUBLIC_URL: server.url } : {}), ...options.env };
      return runCli([...command, ...args], { env, stdinOpen: options.stdinOpen });
    },
    runOnTty: (command, options = {}) => {
      const secret = options.token === undefined ? token : options.token;
      return runCliOnTty([...command, ...args], {
        env: { SCHEDULE_TOKEN: secret ?? undefined, ...(name === 'embedded' ? { PUBLIC_URL: server.url } : {}), ...options.env },
        ...(options.answers ? { answers: options.answers } : {}),
      });
    },
    ...httpReader(server.url, token),
    normalize: normalizerFor(name, fixed, server.url),
  });
  const modes = {
    embedded: mode('embedded', embeddedServer, ['--db', dbs.embedded]),
    remote: mode('remote', remoteServer, ['--api-url', remoteServer.url]),
  };
  return {
    ...modes,
    async both(args, options) {
      const argsOf = (m: CliMode) => (typeof args === 'function' ? args(m) : args);
      const [embedded, remote] = await Promise.all([
        modes.embedded.run(argsOf(modes.embedded), options),
        modes.remote.run(argsOf(modes.remote), options),
      ]);
      return { embedded, remote };
    },
    async stop() {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
}

/**
 * Both modes printed the same thing and exited alike, once generated uids,
 * write times, the mode and each mode's series source are replaced; and each
 * run is as `expected(mode)` says, when given.
 */
export function expectSameInBothModes(modes: CliModes, runs: PerMode<CliRun>, expected?: (mode: CliMode) => unknown): void {
  if (expected) for (const name of MODE_NAMES) expect(runs[name], `${name} mode`).toEqual(expected(modes[name]));
  const shown = (name: ModeName) => ({
    code: runs[name].code,
    stdout: modes[name].normalize(runs[name].stdout),
    stderr: modes[name].normalize(runs[name].stderr),
  });
  expect(shown('embedded'), 'embedded mode (normalized) against remote mode (normalized)').toEqual(shown('remote'));
}
