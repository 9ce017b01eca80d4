import type { Command } from 'commander';
import { defined, jsonOption, type RunContext, runCommand, show, withCommonOptions } from '../command-context.js';
import { renderObject } from '../output/render.js';
import { BOOKING_COLUMNS } from './columns.js';
import { listCommand, withPaging } from './list-pages.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A single booking, or an action's answer: the object itself. */
function showBooking(ctx: RunContext, data: unknown): void {
  show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
}

/** The version to send as If-Match: `--if-match`, else the version read just now. */
export async function ifMatchOf(ctx: RunContext, getOperation: string, uid: string): Promise<string> {
  if (ctx.options.ifMatch !== undefined) return String(ctx.options.ifMatch);
  const current = await ctx.call(getOperation, { params: { uid } });
  return String((current.data as { version: number }).version);
}

/** `schedule bookings …`: one command per booking endpoint. */
export function registerBookings(program: Command): void {
  const bookings = program.command('bookings').description('List, read, create, cancel, reschedule and update bookings.');

  withPaging(withCommonOptions(bookings.command('list')))
    .description('List the bookings you can see, newest start first.')
    .option('--status <list>', 'comma-separated: confirmed, canceled')
    .option('--host <user-id>', 'only this host')
    .option('--event-type <id>', 'only this event type')
    .option('--series <uid>', 'only the occurrences of this series')
    .option('--attendee <email>', 'only this attendee (exact)')
    .option('--from <iso>', 'start on or after (start_date)')
    .option('--to <iso>', 'start on or before (end_date)')
    .option('--updated-since <iso>', 'changed at or after')
    .option('--sort <sort>', 'start_at_desc (default), start_at_asc, created_at_desc, updated_at_asc, updated_at_desc')
    .addHelpText(
      'after',
      '\nExamples:\n  schedule bookings list --status confirmed --sort start_at_asc\n  schedule bookings list --series <uid> --all --json',
    )
    .action((_, command: Command) =>
      runCommand(command, (ctx) =>
        listCommand(
          ctx,
          'list_bookings',
          defined({
            status: ctx.options.status,
            host_user_id: ctx.options.host,
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

  withCommonOptions(bookings.command('get <uid>'))
    .description('Show one booking, with its form answers and version.')
    .addHelpText('after', '\nExample:\n  schedule bookings get 3d6f2a10-5b7c-4d8e-9f01-23456789ab01')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => showBooking(ctx, (await ctx.call('get_booking', { params: { uid } })).data)),
    );

  withCommonOptions(bookings.command('create'))
    .description("Book a meeting with an event type's owner.")
    .option('--event-type <id>', 'the event type (or --username with --event-slug)')
    .option('--username <name>', "the event type's owner")
    .option('--event-slug <slug>', "the event type's slug")
    .requiredOption('--start <iso>', 'the start, ISO 8601 (see `schedule slots list`)')
    .requiredOption('--attendee-email <email>', 'who the meeting is with')
    .option('--attendee-name <name>', 'their name')
    .option('--attendee-timezone <zone>', 'their time zone')
    .option('--phone <phone>', 'their phone')
    .option('--timezone <zone>', "the booking's time zone")
    .option('--guest <email>', 'a guest (repeatable)', collect)
    .option('--responses <json>', 'form answers, JSON object')
    .option('--metadata <json>', 'metadata, JSON object')
    .option('--idempotency-key <key>', 'the key (default: a new one per invocation)')
    .addHelpText(
      'after',
      '\nExample:\n  schedule bookings create --username alice --event-slug intro --start 2026-12-08T09:00:00Z --attendee-email kim@example.com',
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          event_type_id: o.eventType,
          username: o.username,
          event_slug: o.eventSlug,
          start: o.start,
          timezone: o.timezone,
          attendee: defined({ email: o.attendeeEmail, name: o.attendeeName, timezone: o.attendeeTimezone, phone: o.phone }),
          guests: o.guest,
          responses: jsonOption('--responses', o.responses),
          metadata: jsonOption('--metadata', o.metadata),
        });
        showBooking(ctx, (await ctx.call('create_booking', { body, idempotencyKey: ctx.key() })).data);
      }),
    );

  withCommonOptions(bookings.command('cancel <uid>'))
    .description('Cancel a booking that has not started.')
    .option('--reason <text>', 'why, passed on to the attendee')
    .option('--idempotency-key <key>', 'the key (default: a new one per invocation)')
    .addHelpText('after', '\nExample:\n  schedule bookings cancel <uid> --reason "Out sick"')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) =>
        showBooking(
          ctx,
          (await ctx.call('cancel_booking', { params: { uid }, body: defined({ reason: ctx.options.reason }), idempotencyKey: ctx.key() }))
            .data,
        ),
      ),
    );

  withCommonOptions(bookings.command('reschedule <uid>'))
    .description('Move a booking to a new start, keeping its length.')
    .requiredOption('--start <iso>', 'the new start, ISO 8601')
    .option('--timezone <zone>', "the booking's time zone from now on")
    .option('--reason <text>', 'why')
    .option('--idempotency-key <key>', 'the key (default: a new one per invocation)')
    .addHelpText('after', '\nExample:\n  schedule bookings reschedule <uid> --start 2026-12-09T10:00:00Z')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = defined({ start: ctx.options.start, timezone: ctx.options.timezone, reason: ctx.options.reason });
        showBooking(ctx, (await ctx.call('reschedule_booking', { params: { uid }, body, idempotencyKey: ctx.key() })).data);
      }),
    );

  withCommonOptions(bookings.command('update <uid>'))
    .description('Change metadata (merged), form answers (replaced) or the attendee name.')
    .option('--metadata <json>', 'merged into the metadata, JSON object')
    .option('--responses <json>', 'replaces the form answers, JSON object')
    .option('--attendee-name <name>', "the attendee's name")
    .option('--if-match <version>', 'the version you read (default: read it now)')
    .option('--idempotency-key <key>', 'the key (default: a new one per invocation)')
    .addHelpText('after', '\nExample:\n  schedule bookings update <uid> --metadata \'{"crm_id":"42"}\'')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = defined({
          metadata: jsonOption('--metadata', ctx.options.metadata),
          responses: jsonOption('--responses', ctx.options.responses),
          attendee_name: ctx.options.attendeeName,
        });
        const ifMatch = await ifMatchOf(ctx, 'get_booking', uid);
        showBooking(ctx, (await ctx.call('update_booking', { params: { uid }, body, idempotencyKey: ctx.key(), ifMatch })).data);
      }),
    );
}
