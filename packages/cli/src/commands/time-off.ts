import type { Command } from 'commander';
import { defined, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import { typedTime, typedTimeOrDate } from '../input/time-flags.js';
import { timeOffAddedText, timeOffRemovedText, timeOffUpdatedText } from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { TIME_OFF_COLUMNS } from './columns.js';
import { listCommand, withPaging } from './list-pages.js';

// `schedule time-off …`: a person's time off (docs/api/time-off.md). `--user`
// names whose (default: you); a range is `--start`/`--end` instants (as
// `bookings create --start`), or whole days with `--date` (and `--until`, the
// last day off) in their zone. `list --from/--to` is a window, as elsewhere.

const USER_OPTION = ['--user <user>', 'whose time off: me (default), a user id or a username', 'me'] as const;
const KEY_OPTION = ['--idempotency-key <key>', 'the key (default: a new one per invocation)'] as const;

/** Adds the flags that set a range's ends. */
function withRange(command: Command): Command {
  return command
    .option('--start <time>', 'the first instant off (no offset: read in --tz)', typedTime)
    .option('--end <time>', 'the first instant back', typedTime)
    .option('--date <day>', 'a whole day off, YYYY-MM-DD in their zone (with --until, the first of several)')
    .option('--until <day>', 'the last whole day off, YYYY-MM-DD (default with --date: the same day)');
}

/** The body fields the range flags give: each flag one field, so the API checks the combination and names what is wrong. */
function rangeBody(o: RunContext['options']): Record<string, unknown> {
  return defined({
    start: o.start,
    end: o.end,
    start_date: o.date,
    end_date: o.until ?? (o.date !== undefined && o.end === undefined ? o.date : undefined),
  });
}

/** `--reason TEXT` sets it, `--no-reason` removes it (null), neither leaves it. */
const reasonOf = (value: string | false | undefined) => (value === false ? null : value);

function showTimeOffWrite(ctx: RunContext, data: unknown, say: (data: never, zone: string) => string): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, say(data as never, ctx.style.zone)),
    () => renderObject(data as Record<string, unknown>, ctx.style),
  );
}

export function registerTimeOff(program: Command): void {
  const timeOff = program.command('time-off').description('Manage time off: ranges when someone takes no bookings on any event type.');

  withCommonOptions(
    withPaging(timeOff.command('list'))
      .description('List time off, earliest first.')
      .option(...USER_OPTION)
      .option('--from <time>', 'only ranges ending after this (date or time)', typedTimeOrDate)
      .option('--to <time>', 'only ranges starting before this (date or time)', typedTimeOrDate),
  )
    .addHelpText('after', '\nExample:\n  schedule time-off list --user ann --from 2026-12-01 --to 2027-01-01')
    .action((_, command: Command) =>
      runCommand(command, (ctx) =>
        listCommand(ctx, 'list_time_off', defined({ from: ctx.options.from, to: ctx.options.to }), TIME_OFF_COLUMNS, {
          user_id: ctx.options.user,
        }),
      ),
    );

  withCommonOptions(
    withRange(timeOff.command('add').description('Add time off: --date (and --until) for whole days, or --start and --end.'))
      .option(...USER_OPTION)
      .option('--reason <text>', 'a note, at most 255 characters')
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      [
        '',
        'Existing bookings inside the range stay; new ones cannot be made there.',
        '',
        'Examples:',
        '  schedule time-off add --date 2026-12-11 --reason "Day off"',
        '  schedule time-off add --start 2026-12-10T12:00 --end 2026-12-10T14:00 --user ann',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = { ...rangeBody(ctx.options), ...defined({ reason: ctx.options.reason }) };
        const { data } = await ctx.call('create_time_off', { params: { user_id: ctx.options.user }, body, idempotencyKey: ctx.key() });
        showTimeOffWrite(ctx, data, timeOffAddedText);
      }),
    );

  withCommonOptions(
    withRange(timeOff.command('update <id>').description('Move either end of a range, or change its reason.'))
      .option(...USER_OPTION)
      .option('--reason <text>', 'a note, at most 255 characters')
      .option('--no-reason', 'remove the note')
      .option('--if-match <version>', 'the version you read (default: read it now)', ifMatchVersion)
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule time-off update <id> --until 2026-12-14')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const params = { user_id: ctx.options.user as string, id };
        const body = { ...rangeBody(ctx.options), ...defined({ reason: reasonOf(ctx.options.reason) }) };
        const ifMatch =
          ctx.options.ifMatch === undefined
            ? String(((await ctx.call('get_time_off', { params })).data as { version: number }).version)
            : String(ctx.options.ifMatch);
        const { data } = await ctx.call('update_time_off', { params, body, idempotencyKey: ctx.key(), ifMatch });
        showTimeOffWrite(ctx, data, timeOffUpdatedText);
      }),
    );

  withCommonOptions(
    timeOff
      .command('remove <id>')
      .description('Remove a range of time off.')
      .option(...USER_OPTION)
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule time-off remove <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const params = { user_id: ctx.options.user as string, id };
        showTimeOffWrite(ctx, (await ctx.call('delete_time_off', { params, idempotencyKey: ctx.key() })).data, timeOffRemovedText);
      }),
    );

  withCommonOptions(
    timeOff
      .command('get <id>')
      .description('Show one range of time off and its version.')
      .option(...USER_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule time-off get <id> --json')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('get_time_off', { params: { user_id: ctx.options.user as string, id } });
        show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
      }),
    );
}
