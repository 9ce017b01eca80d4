import type { Command } from 'commander';
import { defined, runCommand, show, withCommonOptions } from '../command-context.js';
import { eventTypeOf, usernameOption } from '../input/event-type-flags.js';
import { numberFlag } from '../input/number-flag.js';
import { typedTime } from '../input/time-flags.js';
import { renderObject } from '../output/render.js';

/** `schedule holds create|release`: keep a free start for a few minutes, then book it with `bookings create --hold`. */
export function registerHolds(program: Command): void {
  const holds = program.command('holds').description('Hold a free start for a few minutes while someone decides; release it.');

  withCommonOptions(
    holds
      .command('create')
      .description('Hold one free start: busy for everyone else until it expires (--ttl seconds, 30-1800, default 600).')
      .option('--event-type <id>', 'the event type (or --event-slug with --owner)')
      .option('--event-slug <slug>', "the event type's slug")
      .option('--owner <username-or-id>', "the event type's owner (with --event-slug)")
      .option('--host <username-or-id>', "whose time: the event type's owner, the same as --owner")
      .addOption(usernameOption())
      .requiredOption('--start <iso>', 'the start, such as 2026-12-08T09:00 (read in --tz) or 2026-12-08T09:00:00Z', typedTime)
      .option('--ttl <seconds>', 'how long to hold it', numberFlag)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  schedule holds create --owner alice --event-slug intro --start 2026-12-08T09:00 --ttl 300',
        '  schedule bookings create --owner alice --event-slug intro --start 2026-12-08T09:00 --hold <id> --attendee-email kim@example.com',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = defined({ ...(await eventTypeOf(ctx, 'is-owner')), start: ctx.options.start, ttl_seconds: ctx.options.ttl });
        const data = (await ctx.call('create_hold', { body, idempotencyKey: ctx.key() })).data as Record<string, unknown>;
        show(ctx, data, () => renderObject(data, ctx.style));
      }),
    );

  withCommonOptions(holds.command('release').argument('<id>', 'the hold id').description('Free a held start at once.'))
    .addHelpText('after', '\nExample:\n  schedule holds release <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const data = (await ctx.call('release_hold', { params: { id } })).data as Record<string, unknown>;
        show(ctx, data, () => renderObject(data, ctx.style));
      }),
    );
}
