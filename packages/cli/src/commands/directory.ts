import type { Command } from 'commander';
import { runCommand, show, withCommonOptions } from '../command-context.js';
import { renderObject } from '../output/render.js';
import { EVENT_TYPE_COLUMNS } from './columns.js';
import { registerEventTypes } from './event-types.js';
import { listCommand, withPaging } from './list-pages.js';

/** `schedule whoami` and `schedule event-types list`. */
export function registerDirectory(program: Command): void {
  withCommonOptions(program.command('whoami').description('Show who the token acts as: user, zone, role, scopes and whom it may act for.'))
    .addHelpText('after', '\nExample:\n  SCHEDULE_TOKEN=pat_... schedule whoami --json')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const data = (await ctx.call('whoami', {})).data as Record<string, unknown>;
        show(ctx, data, () => renderObject(data, ctx.style));
      }),
    );

  const eventTypes = program.command('event-types').description('Event types you can book: list, get, create, update, delete (archive).');
  withCommonOptions(withPaging(eventTypes.command('list').description('List the event types you can book, with their ids.')))
    .addHelpText('after', '\nExample:\n  schedule event-types list --json')
    .action((_, command: Command) => runCommand(command, (ctx) => listCommand(ctx, 'list_event_types', {}, EVENT_TYPE_COLUMNS)));
  registerEventTypes(eventTypes);
}
