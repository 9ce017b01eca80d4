import type { Command } from 'commander';
import { defined, runCommand, show, withCommonOptions } from '../command-context.js';
import { eventTypeOf, usernameOption } from '../input/event-type-flags.js';
import { typedTimeOrDate } from '../input/time-flags.js';
import { renderList, renderObject } from '../output/render.js';
import { SLOT_COLUMNS } from './columns.js';

/** The options naming the event type, as both slots commands take them. */
function withEventTypeOptions(command: Command): Command {
  return command
    .option('--event-type <id>', 'the event type (or --event-slug with --owner)')
    .option('--event-slug <slug>', "the event type's slug")
    .option('--owner <username-or-id>', "the event type's owner (with --event-slug)")
    .option('--host <username-or-id>', "whose free times: the event type's owner, the same as --owner")
    .addOption(usernameOption());
}

/** `schedule slots list|check`. */
export function registerSlots(program: Command): void {
  const slots = program.command('slots').description('Free times of an event type.');

  withCommonOptions(
    withEventTypeOptions(slots.command('list').description('List free start times between --start and --end (at most 31 days).'))
      .requiredOption('--start <iso>', 'from (inclusive): a date, or a time (without an offset: in --tz)', typedTimeOrDate)
      .requiredOption('--end <iso>', 'to (exclusive): a date, or a time (without an offset: in --tz)', typedTimeOrDate)
      .option('--timezone <zone>', 'the zone the answer is labelled with'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule slots list --owner alice --event-slug intro --start 2026-12-07 --end 2026-12-14',
        '  schedule slots list --event-type <id> --start 2026-12-08T09:00 --end 2026-12-08T12:00 --tz Europe/Berlin',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const query = {
          ...(await eventTypeOf(ctx, 'is-owner')),
          ...defined({ start: ctx.options.start, end: ctx.options.end, timezone: ctx.options.timezone }),
        };
        const data = (await ctx.call('list_slots', { query })).data as { slots: unknown[] };
        show(ctx, data, () => renderList(data.slots, SLOT_COLUMNS, ctx.style));
      }),
    );

  withCommonOptions(
    withEventTypeOptions(
      slots.command('check').description('Check whether one exact start can be booked, and if not, why and the next free one.'),
    )
      .requiredOption('--start <iso>', 'the start to check (without an offset: in --tz)', typedTimeOrDate)
      .option('--end <iso>', 'the end (default: start + duration)', typedTimeOrDate)
      .option('--timezone <zone>', 'the zone to look for next_available in'),
  )
    .addHelpText('after', '\nExample:\n  schedule slots check --event-type <id> --start 2026-12-08T09:00:00Z')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const query = {
          ...(await eventTypeOf(ctx, 'is-owner')),
          ...defined({ start: ctx.options.start, end: ctx.options.end, timezone: ctx.options.timezone }),
        };
        const data = (await ctx.call('check_slot', { query })).data as Record<string, unknown>;
        show(ctx, data, () => renderObject(data, ctx.style));
      }),
    );
}
