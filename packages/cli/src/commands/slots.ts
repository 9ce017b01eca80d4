import type { Command } from 'commander';
import { defined, runCommand, show, withCommonOptions } from '../command-context.js';
import { renderList, renderObject } from '../output/render.js';
import { SLOT_COLUMNS } from './columns.js';

function eventTypeQuery(o: Record<string, any>) {
  return defined({ event_type_id: o.eventType, username: o.username, event_slug: o.eventSlug });
}

/** `schedule slots list|check`. */
export function registerSlots(program: Command): void {
  const slots = program.command('slots').description('Free times of an event type.');

  withCommonOptions(slots.command('list'))
    .description('List free start times between --start and --end (at most 31 days).')
    .option('--event-type <id>', 'the event type (or --username with --event-slug)')
    .option('--username <name>', "the event type's owner")
    .option('--event-slug <slug>', "the event type's slug")
    .requiredOption('--start <iso>', 'from (inclusive)')
    .requiredOption('--end <iso>', 'to (exclusive)')
    .option('--timezone <zone>', 'the zone the answer is labelled with')
    .addHelpText('after', '\nExample:\n  schedule slots list --username alice --event-slug intro --start 2026-12-07 --end 2026-12-14')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const query = {
          ...eventTypeQuery(ctx.options),
          ...defined({ start: ctx.options.start, end: ctx.options.end, timezone: ctx.options.timezone }),
        };
        const data = (await ctx.call('list_slots', { query })).data as { slots: unknown[] };
        show(ctx, data, () => renderList(data.slots, SLOT_COLUMNS, ctx.style));
      }),
    );

  withCommonOptions(slots.command('check'))
    .description('Check whether one exact start can be booked, and if not, why and the next free one.')
    .option('--event-type <id>', 'the event type (or --username with --event-slug)')
    .option('--username <name>', "the event type's owner")
    .option('--event-slug <slug>', "the event type's slug")
    .requiredOption('--start <iso>', 'the start to check')
    .option('--end <iso>', 'the end (default: start + duration)')
    .option('--timezone <zone>', 'the zone to look for next_available in')
    .addHelpText('after', '\nExample:\n  schedule slots check --event-type <id> --start 2026-12-08T09:00:00Z')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const query = {
          ...eventTypeQuery(ctx.options),
          ...defined({ start: ctx.options.start, end: ctx.options.end, timezone: ctx.options.timezone }),
        };
        const data = (await ctx.call('check_slot', { query })).data as Record<string, unknown>;
        show(ctx, data, () => renderObject(data, ctx.style));
      }),
    );
}
