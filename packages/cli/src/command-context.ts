import { randomUUID } from 'node:crypto';
import type { OperationName } from '@schedule/core';
import { type Command, Option } from 'commander';
import type { Backend, CallInput, CallResult } from './backend/backend.js';
import { CliError } from './backend/backend.js';
import { readTypedTimes } from './input/time-flags.js';
import { exitCodeOf } from './output/exit-codes.js';
import { type FlagOf, firstFlagOf, flagsOfCommand, inFlagTerms } from './output/flag-names.js';
import { type OutputStyle, renderJson, wantsColor } from './output/render.js';
import { isTimeZoneName } from './output/zone-time.js';

/** Options every data command takes: where to run, as whom, and how to print. */
export interface CommonOptions {
  db?: string;
  apiUrl?: string;
  token?: string;
  workspace?: string;
  json?: boolean;
  verbose?: boolean;
  tz?: string;
  color?: boolean;
}

/** The heading the common options are listed under in --help, after the command's own (as gh lists inherited flags). */
export const GLOBAL_OPTIONS = 'Global options:';

/**
 * Adds the common options to a command, after its own: call it once the
 * command's own options are declared, so --help lists those first. A
 * `local` command works on the database only (the tokens commands): it
 * lists neither --api-url nor --token, and still takes them quietly, so
 * that one given gets the command's own explanation rather than "unknown".
 */
export function withCommonOptions(command: Command, where: 'anywhere' | 'local' = 'anywhere'): Command {
  const option = (flags: string, description: string, hidden = false) =>
    command.addOption(new Option(flags, description).helpGroup(GLOBAL_OPTIONS).hideHelp(hidden));
  option('--db <url>', 'embedded: SQLite file, :memory: or postgres:// URL (default: $DATABASE_URL, else the embedded file)');
  option('--api-url <url>', 'remote: the HTTP API to call instead (default: $SCHEDULE_API_URL)', where === 'local');
  option('--token <secret>', 'the token to act as (default: $SCHEDULE_TOKEN)', where === 'local');
  option('--workspace <file>', 'load or refresh this workspace file into the database first (embedded only)');
  option('--json', "print the API's data as JSON");
  option(
    '--tz <zone>',
    "your time zone: times on a terminal are shown in it, and times typed without an offset are read in it (default: this machine's)",
  );
  option('--no-color', 'no colours (also: NO_COLOR)');
  option('--verbose', 'also print the idempotency key and the mode on stderr');
  return command.addHelpOption(new Option('-h, --help', 'display help for command').helpGroup(GLOBAL_OPTIONS));
}

/** What a command's work gets: the backend, how to print, and the invocation's helpers. */
export interface RunContext {
  readonly backend: Backend;
  readonly style: OutputStyle;
  /** The options, with times typed without an offset already read in --tz. */
  readonly options: CommonOptions & Record<string, any>;
  print(text: string): void;
  /** A new Idempotency-Key for this invocation (`--idempotency-key` wins), shown with --verbose. */
  key(): string;
  call(operation: OperationName, input: CallInput): Promise<CallResult>;
}

function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone of --tz, else the machine's. An unknown one is a usage error whatever the output, since times typed are read in it. */
export function zoneOf(tz: string | undefined): string {
  if (tz === undefined) return localZone();
  if (!isTimeZoneName(tz)) throw new CliError('usage', `--tz ${tz} is not a time zone; give an IANA name such as Europe/Berlin, or UTC.`);
  return tz;
}

async function openBackend(options: CommonOptions): Promise<Backend> {
  const apiUrl = options.apiUrl ?? process.env.SCHEDULE_API_URL;
  const token = options.token ?? process.env.SCHEDULE_TOKEN;
  if (apiUrl) {
    if (options.workspace) throw new CliError('usage', '--workspace loads into a local database; it cannot be used with --api-url.');
    const { openRemote } = await import('./backend/remote.js');
    const timeoutMs = Number(process.env.SCHEDULE_API_TIMEOUT_MS);
    return openRemote({ apiUrl, token, ...(timeoutMs > 0 ? { timeoutMs } : {}) });
  }
  const [{ openEmbedded }, { resolveDatabase }] = await Promise.all([import('./backend/embedded.js'), import('./default-db.js')]);
  return openEmbedded({ db: resolveDatabase(options.db), workspace: options.workspace, token });
}

/**
 * Writes an error as `error <code>: <message>` on stderr and sets the exit
 * code from the table. A message about the API's fields names the flags
 * that sent them instead (flag-names.ts), those of the command that ran
 * (`flagOf`); --verbose details stay the API's.
 */
export function reportError(error: unknown, verbose: boolean, flagOf: FlagOf = firstFlagOf): void {
  if (error instanceof CliError) {
    process.stderr.write(`error ${error.code}: ${inFlagTerms(error.message, error.details, flagOf)}\n`);
    if (verbose && Object.keys(error.details).length > 0) process.stderr.write(`details: ${JSON.stringify(error.details)}\n`);
    process.exitCode = exitCodeOf(error.code);
    return;
  }
  process.stderr.write(`error internal_error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

/**
 * Runs a command's work against the backend its options choose, printing
 * its errors the one way every command does. --tz is checked and the times
 * typed are read before anything is opened.
 */
export async function runCommand(command: Command, work: (ctx: RunContext) => Promise<void>): Promise<void> {
  const typed = command.optsWithGlobals() as CommonOptions & Record<string, any>;
  const tty = process.stdout.isTTY === true;
  let backend: Backend | undefined;
  try {
    const zone = zoneOf(typed.tz);
    const options = await readTypedTimes(typed, zone);
    const style: OutputStyle = { json: options.json === true, tty, color: wantsColor(tty, options.color), zone };
    backend = await openBackend(options);
    const opened = backend;
    if (options.verbose) process.stderr.write(`mode: ${opened.mode}\n`);
    let key: string | undefined;
    await work({
      backend: opened,
      style,
      options,
      print: (text) => process.stdout.write(text),
      key() {
        key ??= options.idempotencyKey ?? randomUUID();
        if (options.verbose) process.stderr.write(`idempotency-key: ${key}\n`);
        return key!;
      },
      call: (operation, input) => opened.call(operation, input),
    });
  } catch (error) {
    reportError(error, typed.verbose === true, flagsOfCommand(command));
  } finally {
    await backend?.close();
  }
}

/** Prints a result: the API's data as JSON, or the command's own rendering. */
export function show(ctx: RunContext, data: unknown, render: () => string): void {
  ctx.print(ctx.style.json ? renderJson(data) : render());
}

/**
 * Prints what a write did: --json the API's data in full; on a terminal one
 * line saying what happened (`confirmation`); piped, the lines scripts read
 * (`piped`), as before confirmations existed.
 */
export function showWrite(ctx: RunContext, data: unknown, confirmation: () => string, piped: () => string): void {
  if (ctx.style.json) ctx.print(renderJson(data));
  else ctx.print(ctx.style.tty ? confirmation() : piped());
}

/** Reads a JSON option (`--metadata '{"a":1}'`); bad JSON is a usage error naming the flag. */
export function jsonOption(flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('usage', `${flag} must be JSON, such as '{"key":"value"}'.`);
  }
}

/** Drops undefined fields, so a body or query carries only what was given. */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
