import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { defined, jsonOption, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { bookingUidOf, UID_ARGUMENT } from '../input/booking-uid.js';
import { eventTypeOf, usernameOption } from '../input/event-type-flags.js';
import { hostIdOf } from '../input/host-flag.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import { typedTime, typedTimeOrDate } from '../input/time-flags.js';
import {
  bookedText,
  canceledText,
  confirmedText,
  declinedText,
  noShowText,
  reassignedText,
  rescheduledText,
  updatedBookingText,
} from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { BOOKING_COLUMNS } from './columns.js';
import { listCommand, withPaging } from './list-pages.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

type BookingData = Parameters<typeof noShowText>[0];

/** A single booking: the object itself, as key and value lines. */
function showBooking(ctx: RunContext, data: unknown): void {
  show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
}

/** A booking a write returned: one line on a terminal (`say`), the object's lines piped, the data with --json. */
function showBookingWrite(ctx: RunContext, data: unknown, say: (b: BookingData, zone: string) => string): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, say(data as BookingData, ctx.style.zone)),
    () => renderObject(data as Record<string, unknown>, ctx.style),
  );
}

/** The version to send as If-Match: `--if-match`, else the version read just now. */
export async function ifMatchOf(ctx: RunContext, getOperation: 'get_booking' | 'get_series', uid: string): Promise<string> {
  if (ctx.options.ifMatch !== undefined) return String(ctx.options.ifMatch);
  const current = await ctx.call(getOperation, { params: { uid } });
  return String((current.data as { version: number }).version);
}

/** `schedule bookings …`: one command per booking endpoint. */
export function registerBookings(program: Command): void {
  const bookings = program
    .command('bookings')
    .description('List, read, create, cancel, reschedule, confirm, decline and update bookings; record no-shows.');

  withCommonOptions(
    withPaging(bookings.command('list'))
      .description('List the bookings you can see, newest start first.')
      .option('--status <list>', 'comma-separated: confirmed, pending, canceled, declined')
      .option('--host <username-or-id>', 'only this host')
      .option('--event-type <id>', 'only this event type')
      .option('--series <uid>', 'only the occurrences of this series')
      .option('--attendee <email>', 'only this attendee (exact)')
      .option('--from <iso>', 'start on or after: a date, or a time (without an offset: in --tz)', typedTimeOrDate)
      .option('--to <iso>', 'start on or before: a date, or a time (without an offset: in --tz)', typedTimeOrDate)
      .option('--updated-since <iso>', 'changed at or after: a date, or a time (without an offset: in --tz)', typedTimeOrDate)
      .option('--sort <sort>', 'start_at_desc (default), start_at_asc, created_at_desc, updated_at_asc, updated_at_desc'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule bookings list --status confirmed --sort start_at_asc',
        '  schedule bookings list --host alice --from 2026-12-07 --to 2026-12-11T18:00',
        '  schedule bookings list --series <uid> --all --json',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) =>
        listCommand(
          ctx,
          'list_bookings',
          defined({
            status: ctx.options.status,
            host_user_id: await hostIdOf(ctx, ctx.options.host),
            event_type_id: ctx.options.eventType,
            series_id: ctx.options.series,
            attendee_email: ctx.options.attendee,
            start_date: ctx.options.from,
            end_date: ctx.options.to,
            updated_since: ctx.options.updatedSince,
            sort: ctx.options.sort,
          }),
          BOOKING_COLUMNS,
        ),
      ),
    );

  withCommonOptions(
    bookings.command('get').argument('<uid>', UID_ARGUMENT).description('Show one booking, with its form answers and version.'),
  )
    .addHelpText('after', '\nExamples:\n  schedule bookings get 3d6f2a10-5b7c-4d8e-9f01-23456789ab01\n  schedule bookings get 3d6f2a10')
    .action((typed: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        showBooking(ctx, (await ctx.call('get_booking', { params: { uid } })).data);
      }),
    );

  withCommonOptions(
    bookings
      .command('create')
      .description("Book a meeting with an event type's owner.")
      .option('--event-type <id>', 'the event type (or --event-slug with --owner)')
      .option('--event-slug <slug>', "the event type's slug")
      .option('--owner <username-or-id>', "the event type's owner (with --event-slug)")
      .option('--host <username-or-id>', "who hosts it: the event type's owner, the same as --owner")
      .addOption(usernameOption())
      .requiredOption('--start <iso>', 'the start, such as 2026-12-08T09:00 (read in --tz) or 2026-12-08T09:00:00Z', typedTime)
      .requiredOption('--attendee-email <email>', 'who the meeting is with')
      .option('--attendee-name <name>', 'their name')
      .option('--attendee-timezone <zone>', 'their time zone')
      .option('--phone <phone>', 'their phone')
      .option('--timezone <zone>', "the booking's time zone")
      .option('--guest <email>', 'a guest (repeatable)', collect)
      .option('--responses <json>', 'form answers, JSON object')
      .option('--metadata <json>', 'metadata, JSON object')
      .option('--hold <id>', 'book the start you held (schedule holds create)')
      .option('--team-host <user-id>', 'a round-robin type: book this host of its pool')
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule bookings create --owner alice --event-slug intro --start 2026-12-08T09:00 --attendee-email kim@example.com',
        '  schedule bookings create --event-type <id> --start 2026-12-08T09:00:00Z --attendee-email kim@example.com --json',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          ...(await eventTypeOf(ctx, 'is-owner')),
          start: o.start,
          hold_id: o.hold,
          host_user_id: o.teamHost,
          timezone: o.timezone,
          attendee: defined({ email: o.attendeeEmail, name: o.attendeeName, timezone: o.attendeeTimezone, phone: o.phone }),
          guests: o.guest,
          responses: jsonOption('--responses', o.responses),
          metadata: jsonOption('--metadata', o.metadata),
        });
        showBookingWrite(ctx, (await ctx.call('create_booking', { body, idempotencyKey: ctx.key() })).data, bookedText);
      }),
    );

  withCommonOptions(
    bookings
      .command('cancel')
      .argument('<uid>', UID_ARGUMENT)
      .description('Cancel a booking that has not started.')
      .option('--reason <text>', 'why, passed on to the attendee')
      .option('--override-notice', "cancel even inside the event type's cancel notice")
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule bookings cancel <uid> --reason "Out sick"')
    .action((typed: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        const body = defined({ reason: ctx.options.reason, override_notice: ctx.options.overrideNotice });
        showBookingWrite(ctx, (await ctx.call('cancel_booking', { params: { uid }, body, idempotencyKey: ctx.key() })).data, canceledText);
      }),
    );

  registerAnswer(bookings, {
    name: 'confirm',
    description: 'Confirm a pending booking, as its host (or for them).',
    example: 'schedule bookings confirm <uid>',
    operation: 'confirm_booking',
    say: confirmedText,
  });
  registerAnswer(bookings, {
    name: 'decline',
    description: 'Decline a pending booking, as its host (or for them); its time is free again.',
    example: 'schedule bookings decline <uid> --reason "Fully booked that week"',
    operation: 'decline_booking',
    say: declinedText,
    reason: true,
  });

  withCommonOptions(
    bookings
      .command('reassign')
      .argument('<uid>', UID_ARGUMENT)
      .description('Hand a round-robin booking to another free host of its pool: --to one, else the next by the rule.')
      .option('--to <user-id>', 'the host to hand it to (default: the next by the fairness rule)')
      .option('--reason <text>', 'why, passed on to the hosts')
      .option('--if-match <version>', 'the version you read (default: none sent)', ifMatchVersion)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule bookings reassign <uid> --reason "Out sick"')
    .action((typed: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        const ifMatch = ctx.options.ifMatch === undefined ? undefined : String(ctx.options.ifMatch);
        const body = defined({ host_user_id: ctx.options.to, reason: ctx.options.reason });
        const sent = { params: { uid }, idempotencyKey: ctx.key(), body, ...defined({ ifMatch }) };
        showBookingWrite(ctx, (await ctx.call('reassign_booking', sent)).data, reassignedText);
      }),
    );

  withCommonOptions(
    bookings
      .command('reschedule')
      .argument('<uid>', UID_ARGUMENT)
      .description('Move a booking to a new start, keeping its length.')
      .requiredOption('--start <iso>', 'the new start, such as 2026-12-09T10:00 (read in --tz) or 2026-12-09T10:00:00Z', typedTime)
      .option('--timezone <zone>', "the booking's time zone from now on")
      .option('--reason <text>', 'why')
      .option('--override-notice', "move it even inside the event type's reschedule notice")
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule bookings reschedule <uid> --start 2026-12-09T10:00')
    .action((typed: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        const body = defined({
          start: ctx.options.start,
          timezone: ctx.options.timezone,
          reason: ctx.options.reason,
          override_notice: ctx.options.overrideNotice,
        });
        showBookingWrite(
          ctx,
          (await ctx.call('reschedule_booking', { params: { uid }, body, idempotencyKey: ctx.key() })).data,
          rescheduledText,
        );
      }),
    );

  withCommonOptions(
    bookings
      .command('update')
      .argument('<uid>', UID_ARGUMENT)
      .description('Change metadata (merged), form answers (replaced) or the attendee name.')
      .option('--metadata <json>', 'merged into the metadata, JSON object')
      .option('--responses <json>', 'replaces the form answers, JSON object')
      .option('--attendee-name <name>', "the attendee's name")
      .option('--if-match <version>', 'the version you read (default: read it now)', ifMatchVersion)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule bookings update <uid> --metadata \'{"crm_id":"42"}\'')
    .action((typed: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        const body = defined({
          metadata: jsonOption('--metadata', ctx.options.metadata),
          responses: jsonOption('--responses', ctx.options.responses),
          attendee_name: ctx.options.attendeeName,
        });
        const ifMatch = await ifMatchOf(ctx, 'get_booking', uid);
        showBookingWrite(
          ctx,
          (await ctx.call('update_booking', { params: { uid }, body, idempotencyKey: ctx.key(), ifMatch })).data,
          updatedBookingText,
        );
      }),
    );

  withCommonOptions(
    bookings
      .command('no-show')
      .argument('<uid>', UID_ARGUMENT)
      .description('Record that the attendee did not come to a booking that has started, or take it back with --clear.')
      .option('--reason <text>', 'why it counts as a no-show')
      .option('--clear', 'take the no-show back')
      .option('--if-match <version>', 'the version you read (default: none sent)', ifMatchVersion)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  schedule bookings no-show <uid> --reason "Did not join"\n  schedule bookings no-show <uid> --clear',
    )
    .action((typed: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        const o = ctx.options;
        if (o.clear === true && o.reason !== undefined) throw new CliError('usage', '--reason and --clear cannot be used together.');
        const ifMatch = o.ifMatch === undefined ? undefined : String(o.ifMatch);
        const answer =
          o.clear === true
            ? await ctx.call('clear_no_show', { params: { uid }, idempotencyKey: ctx.key(), ifMatch })
            : await ctx.call('mark_no_show', { params: { uid }, body: defined({ reason: o.reason }), idempotencyKey: ctx.key(), ifMatch });
        showBookingWrite(ctx, answer.data, noShowText);
      }),
    );
}

/** `bookings confirm` and `bookings decline`: the host's answer to a pending booking, If-Match sent only when given. */
function registerAnswer(
  bookings: Command,
  answer: {
    name: string;
    description: string;
    example: string;
    operation: 'confirm_booking' | 'decline_booking';
    say: (b: BookingData, zone: string) => string;
    reason?: boolean;
  },
): void {
  let command = bookings.command(answer.name).argument('<uid>', UID_ARGUMENT).description(answer.description);
  if (answer.reason) command = command.option('--reason <text>', 'why, passed on to the attendee');
  withCommonOptions(
    command
      .option('--if-match <version>', 'the version you read (default: none sent)', ifMatchVersion)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', `\nExample:\n  ${answer.example}`)
    .action((typed: string, _, cmd: Command) =>
      runCommand(cmd, async (ctx) => {
        const uid = await bookingUidOf(ctx, typed);
        const ifMatch = ctx.options.ifMatch === undefined ? undefined : String(ctx.options.ifMatch);
        const body = answer.reason ? defined({ reason: ctx.options.reason }) : undefined;
        const sent = { params: { uid }, idempotencyKey: ctx.key(), ...defined({ body, ifMatch }) };
        showBookingWrite(ctx, (await ctx.call(answer.operation, sent)).data, answer.say);
      }),
    );
}
