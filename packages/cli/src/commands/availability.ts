import { readFile } from 'node:fs/promises';
import type { WEEKDAYS, WorkingHours } from '@schedule/core';
import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import { confirmationLine, renderObject } from '../output/render.js';

// `schedule availability …`: a person's working hours (docs/api/availability.md),
// one command per operation, through ctx.call so embedded and remote agree.

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly (typeof WEEKDAYS)[number][];
type Hours = [string, string][];

/** What GET answers but a replace does not take: the server keeps these. */
const SERVER_FIELDS = ['user_id', 'default', 'version', 'updated_at'];

const HOURS_TEXT = /^(\d{1,2}:\d{2})-(\d{1,2}:\d{2})$/;

/** `09:00-12:00,13:00-17:00` as intervals; `off` (or nothing) is no hours. The API judges the times themselves. */
export function hoursFlag(flag: string, text: string): Hours {
  const value = text.trim();
  if (value === '' || value === 'off') return [];
  return value.split(',').map((part) => {
    const m = HOURS_TEXT.exec(part.trim());
    if (!m) throw new CliError('usage', `${flag} ${text} is not hours; give from-to pairs such as 09:00-12:00,13:00-17:00, or off.`);
    return [m[1]!, m[2]!];
  });
}

const hoursText = (hours: readonly (readonly string[])[]) => (hours.length === 0 ? 'off' : hours.map(([a, b]) => `${a}-${b}`).join(', '));

/** The document as `key  value` lines: zone, each day, each override, version. */
function renderHours(ctx: RunContext, hours: WorkingHours): string {
  const lines: Record<string, unknown> = {
    user_id: hours.user_id,
    timezone: hours.timezone ?? 'the person’s own',
    ...Object.fromEntries(DAYS.map((day) => [day, hoursText(hours.weekly[day])])),
    ...Object.fromEntries(hours.overrides.map((o) => [o.date, hoursText(o.intervals)])),
    default: hours.default,
    version: hours.version,
  };
  return renderObject(lines, ctx.style);
}

function showHoursWrite(ctx: RunContext, hours: WorkingHours, said: string): void {
  showWrite(
    ctx,
    hours,
    () => confirmationLine(ctx.style, `${said} (version ${hours.version}).`),
    () => renderHours(ctx, hours),
  );
}

const userOf = (ctx: RunContext): string => ctx.options.user ?? 'me';

async function readHours(ctx: RunContext): Promise<WorkingHours> {
  return (await ctx.call('get_availability', { params: { user_id: userOf(ctx) } })).data as WorkingHours;
}

/** The JSON of `--file`: a path, or `-` for stdin. */
async function readDocument(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError('usage', `--file ${path} cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError('usage', `--file ${path} is not JSON; give the document get --json prints, or {"weekly": {...}}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError('usage', `--file ${path} must hold one JSON object.`);
  }
  return value as Record<string, unknown>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The body and If-Match of `set`: the file's document (without what the
 * server keeps; its `version` is the If-Match), else the hours read now,
 * then each day flag and --timezone over it.
 */
async function replacement(ctx: RunContext): Promise<{ body: Record<string, unknown>; ifMatch: string }> {
  const o = ctx.options;
  let base: Record<string, unknown>;
  let version: unknown;
  if (o.file !== undefined) {
    const document = await readDocument(o.file);
    version = document.version;
    base = Object.fromEntries(Object.entries(document).filter(([key]) => !SERVER_FIELDS.includes(key)));
  } else {
    const current = await readHours(ctx);
    version = current.version;
    base = { timezone: current.timezone, weekly: current.weekly, overrides: current.overrides };
  }
  const days = DAYS.filter((day) => o[day] !== undefined);
  if (o.file === undefined && days.length === 0 && o.timezone === undefined) {
    throw new CliError('usage', 'Give --file, a day (--mon 09:00-17:00 …) or --timezone: nothing would change.');
  }
  const weekly = {
    ...(base.weekly as Record<string, unknown> | undefined),
    ...Object.fromEntries(days.map((d) => [d, hoursFlag(`--${d}`, o[d])])),
  };
  const body = { ...base, weekly, ...(o.timezone !== undefined ? { timezone: o.timezone === 'own' ? null : o.timezone } : {}) };
  const ifMatch =
    o.ifMatch !== undefined ? String(o.ifMatch) : typeof version === 'number' ? String(version) : String((await readHours(ctx)).version);
  return { body, ifMatch };
}

const KEY_OPTION = ['--idempotency-key <key>', 'the key (default: a new one per invocation)'] as const;
const USER_OPTION = ['--user <user>', 'whose hours: a user id, username or me (default: me)'] as const;

/** `schedule availability …` (docs/api/availability.md). */
export function registerAvailability(program: Command): void {
  const availability = program
    .command('availability')
    .description('Working hours: read and replace the weekly hours and zone, add and remove date overrides (days off).');

  withCommonOptions(
    availability
      .command('get')
      .description('Show the working hours, their zone, overrides and version.')
      .option(...USER_OPTION),
  )
    .addHelpText('after', '\nExamples:\n  schedule availability get\n  schedule availability get --user bob --json > hours.json')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const hours = await readHours(ctx);
        show(ctx, hours, () => renderHours(ctx, hours));
      }),
    );

  const set = availability
    .command('set')
    .description('Replace the working hours: from --file (a document, - for stdin), or the hours now with the days and zone given.')
    .option('--file <path>', 'the JSON document (get --json prints one); - reads stdin')
    .option('--timezone <zone>', 'the IANA zone the hours are in; own: the person’s zone');
  for (const day of DAYS) set.option(`--${day} <hours>`, `${day}'s hours, such as 09:00-12:00,13:00-17:00, or off`);
  withCommonOptions(
    set
      .option(...USER_OPTION)
      .option('--if-match <version>', 'the version you read (default: the file’s version, else read it now)', ifMatchVersion)
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule availability set --mon 09:00-12:00,13:00-17:00 --fri off',
        '  schedule availability get --json > hours.json && $EDITOR hours.json && schedule availability set --file hours.json',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { body, ifMatch } = await replacement(ctx);
        const input = { params: { user_id: userOf(ctx) }, body, ifMatch, idempotencyKey: ctx.key() };
        showHoursWrite(ctx, (await ctx.call('replace_availability', input)).data as WorkingHours, 'Working hours replaced');
      }),
    );

  const override = availability.command('override').description('Add or remove the hours of one date (a day off, or other hours).');

  withCommonOptions(
    override
      .command('add <date>')
      .description("Set one date's hours, replacing any override of that date; without --hours, a day off.")
      .option('--hours <hours>', 'the hours that day, such as 10:00-14:00 (default: off, a day off)')
      .option(...USER_OPTION)
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  schedule availability override add 2026-12-24\n  schedule availability override add 2026-12-31 --hours 09:00-12:00',
    )
    .action((date: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = { date, intervals: hoursFlag('--hours', ctx.options.hours ?? 'off') };
        const input = { params: { user_id: userOf(ctx) }, body, idempotencyKey: ctx.key() };
        const hours = (await ctx.call('add_availability_override', input)).data as WorkingHours;
        showHoursWrite(ctx, hours, `${date}: ${hoursText(body.intervals)}`);
      }),
    );

  withCommonOptions(
    override
      .command('remove <date>')
      .description("Remove one date's override: the date gets its weekday's hours again.")
      .option(...USER_OPTION)
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule availability override remove 2026-12-24')
    .action((date: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const input = { params: { user_id: userOf(ctx), date }, idempotencyKey: ctx.key() };
        const hours = (await ctx.call('remove_availability_override', input)).data as WorkingHours;
        showHoursWrite(ctx, hours, `Override of ${date} removed`);
      }),
    );
}
