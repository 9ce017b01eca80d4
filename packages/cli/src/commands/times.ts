import type { Command } from 'commander';
import { defined, jsonOption, runCommand, show, withCommonOptions } from '../command-context.js';
import { numberFlag } from '../input/number-flag.js';
import { renderList, renderObject } from '../output/render.js';

type Found = { options: Record<string, unknown>[]; not_held_reason: string | null };
type Booked = Record<string, unknown> & { warnings: { code: string; message: string }[] };

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `schedule times find|book`: a few free times in the attendee's terms, then one booked by its option id (docs/api/times.md). */
export function registerTimes(program: Command): void {
  const times = program
    .command('times')
    .description("Find a few free times in the attendee's days, part of day and zone, held; book one by its option id.");

  withCommonOptions(
    times
      .command('find')
      .description("Options on both people's clocks, the first free start of each day first, each held for 10 minutes.")
      .option('--host <who>', 'whose time: a username, email or user id (default: you)')
      .option('--event-type <id-slug-or-name>', "the event type (default: the host's only one)")
      .option('--attendee-timezone <zone>', 'the zone the days and part of day are in (default: yours)')
      .option('--from <date>', 'the first day, YYYY-MM-DD (default: today there)')
      .option('--to <date>', 'the last day, inclusive (default: --from + 6 days)')
      .option('--part-of-day <part>', 'any, morning (05-12), afternoon (12-17) or evening (17-22)')
      .option('--count <n>', 'how many options, 1 to 5 (default 3)', numberFlag)
      .option('--no-hold', 'do not hold the options'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule times find --event-type intro --from 2026-12-07 --part-of-day afternoon --attendee-timezone America/New_York',
        '  schedule times book <option-id> --attendee-email kim@example.com --attendee-timezone America/New_York',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          host: o.host,
          event_type: o.eventType,
          attendee_timezone: o.attendeeTimezone,
          from: o.from,
          to: o.to,
          part_of_day: o.partOfDay,
          count: o.count,
          hold: o.hold === false ? false : undefined,
        });
        const found = (await ctx.call('find_times', { body, idempotencyKey: ctx.key() })).data as Found;
        show(ctx, found, () => {
          const list = renderList(
            found.options,
            [
              { title: 'OPTION', value: (o) => o.option_id },
              { title: 'ATTENDEE', value: (o) => o.attendee_time },
              { title: 'HOST', value: (o) => o.host_time },
              { title: 'HELD UNTIL', value: (o) => o.held_until },
            ],
            ctx.style,
          );
          return found.not_held_reason === null || found.options.length === 0 ? list : `${list}not held: ${found.not_held_reason}\n`;
        });
      }),
    );

  withCommonOptions(
    times
      .command('book')
      .argument('<option-id>', 'an option id from schedule times find')
      .description('Book an option of times find for the attendee; the other options of that search are let go.')
      .requiredOption('--attendee-email <email>', 'who the meeting is with')
      .option('--attendee-name <name>', 'their name')
      .option('--attendee-timezone <zone>', 'their time zone: the one searched in (default UTC)')
      .option('--guest <email>', 'a guest (repeatable)', collect)
      .option('--responses <json>', 'form answers, JSON object')
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  schedule times book <option-id> --attendee-email kim@example.com --attendee-timezone America/New_York',
    )
    .action((optionId: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          option_id: optionId,
          attendee: defined({ email: o.attendeeEmail, name: o.attendeeName, timezone: o.attendeeTimezone }),
          guests: o.guest,
          responses: jsonOption('--responses', o.responses),
        });
        const booked = (await ctx.call('book_time', { body, idempotencyKey: ctx.key() })).data as Booked;
        show(ctx, booked, () => {
          const { warnings, ...rest } = booked;
          return `${renderObject(rest, ctx.style)}${warnings.map((w) => `warning: ${w.message}\n`).join('')}`;
        });
      }),
    );
}
