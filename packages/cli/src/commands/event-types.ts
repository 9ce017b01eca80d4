import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { defined, jsonOption, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { booleanFlag } from '../input/boolean-flag.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import { numberFlag } from '../input/number-flag.js';
import { eventTypeArchivedText, eventTypeCreatedText, eventTypeUpdatedText } from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';

// `schedule event-types get|create|update|delete` (docs/api/event-types.md);
// `list` is the directory's (directory.ts). Every flag is one API field, so
// the API checks the values and names the field a bad one is in.

/** A limit or seats flag's value: `none` clears it (null); commander turns a parser's null into '', so it is mapped here. */
const noneIsNull = (value: number | string | undefined) => (value === 'none' ? null : value);

/** A yes/no flag: true or false; anything else goes as typed, for the API to refuse. */

/** `--file PATH`: a JSON object of fields; the flags given beside it win. */
function fileFields(path: string | undefined): Record<string, unknown> {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CliError('usage', `--file ${path} cannot be read.`);
  }
  const value = jsonOption('--file', text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('usage', '--file must hold a JSON object.');
  return value as Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `--hosts ana,ben:2,cid:1:3,dee:fixed`: a team type's pool, each host a
 * username or user id with an optional weight and priority, and `fixed` last
 * for a host who meets every booking; `none` empties it. A part that is not
 * a number goes as typed, for the API to refuse naming it.
 */
export function hostsFlag(text: string): Record<string, unknown>[] {
  if (text === 'none') return [];
  return text.split(',').map((entry) => {
    const parts = entry.trim().split(':');
    const fixed = parts.length > 1 && parts.at(-1) === 'fixed';
    const [who = '', weight, priority] = fixed ? parts.slice(0, -1) : parts;
    const number = (part: string | undefined) => (part === undefined ? undefined : /^-?\d+(\.\d+)?$/.test(part) ? Number(part) : part);
    return defined({
      ...(UUID.test(who) ? { user_id: who } : { username: who }),
      weight: number(weight),
      priority: number(priority),
      fixed: fixed ? true : undefined,
    });
  });
}

/** `--description TEXT` sets it, `--no-description` removes it (null), neither leaves it. */
const descriptionOf = (value: string | false | undefined) => (value === false ? null : value);

/** The body the field flags (and `--file`) give. */
function fieldsOf(o: Record<string, any>): Record<string, unknown> {
  return {
    ...fileFields(o.file),
    ...defined({
      slug: o.slug,
      name: o.name,
      description: descriptionOf(o.description),
      duration_minutes: o.duration,
      slot_interval_minutes: o.interval,
      buffer_before_minutes: o.bufferBefore,
      buffer_after_minutes: o.bufferAfter,
      minimum_notice_minutes: o.notice,
      cancel_notice_minutes: o.cancelNotice,
      reschedule_notice_minutes: o.rescheduleNotice,
      future_limit_days: o.futureLimit,
      status: o.status,
      recurring: o.recurring,
      allow_reschedule: o.allowReschedule,
      requires_confirmation: o.requiresConfirmation,
      attendee_mail: o.attendeeMail,
      max_bookings_per_day: noneIsNull(o.maxPerDay),
      max_bookings_per_week: noneIsNull(o.maxPerWeek),
      seats: noneIsNull(o.seats),
      scheduling: o.scheduling,
      hosts: o.hosts,
      location: jsonOption('--location', o.location),
      questions: jsonOption('--questions', o.questions),
      reminders: o.reminders === 'none' ? [] : jsonOption('--reminders', o.reminders),
    }),
  };
}

/** The field flags shared by create and update. */
function withFieldOptions(command: Command): Command {
  return command
    .option('--slug <slug>', 'lowercase letters, digits and dashes; unique per owner')
    .option('--name <name>', 'the name people see')
    .option('--description <text>', 'shown to people booking')
    .option('--no-description', 'remove the description')
    .option('--duration <minutes>', 'length of a meeting, 1 to 1440', numberFlag)
    .option('--interval <minutes>', 'slot grid step, 1 to 1440 (default: the duration)', numberFlag)
    .option('--buffer-before <minutes>', 'free time kept before each meeting', numberFlag)
    .option('--buffer-after <minutes>', 'free time kept after each meeting', numberFlag)
    .option('--notice <minutes>', 'minimum notice before a start', numberFlag)
    .option('--cancel-notice <minutes>', 'attendees may cancel until this long before the start (0: until the start)', numberFlag)
    .option('--reschedule-notice <minutes>', 'attendees may reschedule until this long before the start (0: until the start)', numberFlag)
    .option('--future-limit <days>', 'how far ahead it can be booked', numberFlag)
    .option('--status <on|off>', 'off: not bookable')
    .option('--recurring <on|off>', 'off: no new series')
    .option('--allow-reschedule <true|false>', 'whether bookings may be moved', booleanFlag)
    .option('--requires-confirmation <true|false>', 'whether the host confirms each booking (pending until then)', booleanFlag)
    .option('--attendee-mail <true|false>', 'whether attendees get mail', booleanFlag)
    .option('--max-per-day <n|none>', "most bookings per host per day (host's zone); none: no limit", numberFlag)
    .option('--max-per-week <n|none>', 'most bookings per host per ISO week; none: no limit', numberFlag)
    .option('--seats <n|none>', 'attendees per start, 2 to 1000; none: one per booking', numberFlag)
    .option(
      '--scheduling <single|round_robin|collective>',
      'round_robin: each booking goes to one free host of --hosts, chosen fairly; collective: to all of them',
    )
    .option('--hosts <user[:weight[:priority]][:fixed],...|none>', 'a team type’s pool: usernames or user ids (replaces it)', hostsFlag)
    .option('--location <json>', 'e.g. \'{"type":"link","url":"https://meet.example.com/me"}\' or \'{"type":"conference"}\'')
    .option('--questions <json>', 'the booking form as a JSON array (replaces it)')
    .option(
      '--reminders <json|none>',
      'reminder rules as a JSON array (replaces them), e.g. \'[{"minutes":60,"to":"both"}]\'; none: no reminders',
    )
    .option('--file <path>', 'a JSON object of fields; flags beside it win')
    .option('--idempotency-key <key>', 'the key (default: a new one per invocation)');
}

/** A write's answer: one line on a terminal, the object's lines piped, the data with --json. */
function showEventTypeWrite(ctx: RunContext, data: unknown, say: (data: any) => string): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, say(data)),
    () => renderObject(data as Record<string, unknown>, ctx.style),
  );
}

/** The version to send as If-Match: `--if-match`, else the version read just now. */
async function eventTypeIfMatch(ctx: RunContext, id: string): Promise<string> {
  if (ctx.options.ifMatch !== undefined) return String(ctx.options.ifMatch);
  const current = await ctx.call('get_event_type', { params: { id } });
  return String((current.data as { version: number }).version);
}

/** Adds get, create, update and delete to `schedule event-types`. */
export function registerEventTypes(eventTypes: Command): void {
  withCommonOptions(eventTypes.command('get <id>').description('Show one event type whole, with its version; archived ones too.'))
    .addHelpText('after', '\nExample:\n  schedule event-types get 3f1c8a52-6a1e-4d0b-9a57-1c2e8b7d4f10 --json')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('get_event_type', { params: { id } });
        show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
      }),
    );

  withCommonOptions(
    withFieldOptions(
      eventTypes
        .command('create')
        .description('Create an event type for you, or --owner someone you act for. Unset fields take their defaults.')
        .option('--owner <user>', 'a username or user id (default: you)'),
    ),
  )
    .addHelpText('after', '\nExample:\n  schedule event-types create --slug intro --name "Intro call" --duration 30')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = { ...fieldsOf(ctx.options), ...defined({ owner: ctx.options.owner }) };
        const { data } = await ctx.call('create_event_type', { body, idempotencyKey: ctx.key() });
        showEventTypeWrite(ctx, data, eventTypeCreatedText);
      }),
    );

  withCommonOptions(
    withFieldOptions(
      eventTypes
        .command('update <id>')
        .description('Change an event type: only the fields given. Existing bookings keep their times.')
        .option('--if-match <version>', 'the version you read (default: read it now)', ifMatchVersion),
    ),
  )
    .addHelpText('after', '\nExamples:\n  schedule event-types update <id> --duration 45\n  schedule event-types update <id> --status off')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const ifMatch = await eventTypeIfMatch(ctx, id);
        const { data } = await ctx.call('update_event_type', {
          params: { id },
          body: fieldsOf(ctx.options),
          idempotencyKey: ctx.key(),
          ifMatch,
        });
        showEventTypeWrite(ctx, data, eventTypeUpdatedText);
      }),
    );

  withCommonOptions(
    eventTypes
      .command('delete <id>')
      .description('Archive an event type: no longer listed or bookable, its slug free; its bookings and series stay.')
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule event-types delete <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('delete_event_type', { params: { id }, idempotencyKey: ctx.key() });
        showEventTypeWrite(ctx, data, eventTypeArchivedText);
      }),
    );
}
