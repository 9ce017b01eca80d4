import type { Command } from 'commander';
import { defined, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { eventTypeOf, usernameOption } from '../input/event-type-flags.js';
import { hostIdOf } from '../input/host-flag.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import { wholeNumber } from '../input/whole-number.js';
import { withProgress } from '../interactive/progress.js';
import { offerSeriesWizard } from '../interactive/register-interactive.js';
import {
  seriesCreatedText,
  seriesEndedText,
  seriesMovedText,
  seriesPausedText,
  seriesResumedText,
  seriesUpdatedText,
} from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { skipCauseText } from '../output/skip-causes.js';
import { instantText, rangeText } from '../output/zone-time.js';
import { ifMatchOf } from './bookings.js';
import { SERIES_COLUMNS } from './columns.js';
import { listCommand, withPaging } from './list-pages.js';

const weekdays = (value: string) =>
  value
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');

function showObject(ctx: RunContext, data: unknown): void {
  show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
}

/** An action's answer: one line on a terminal (`say`), its counts as key and value lines piped, the data with --json. */
function showAction<T>(ctx: RunContext, data: unknown, say: (data: T) => string): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, say(data as T)),
    () => renderObject(data as Record<string, unknown>, ctx.style),
  );
}

type Created = Parameters<typeof seriesCreatedText>[0] & { series: Record<string, unknown>; occurrences: unknown[]; skipped: unknown[] };

/**
 * A create's answer. On a terminal: one line, with what was booked and the
 * dates skipped (never shifted). Piped: the series, then one `occurrence`
 * and one `skipped` line each.
 */
function showCreated(ctx: RunContext, data: Created): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, seriesCreatedText(data)),
    () =>
      [
        renderObject(data.series, ctx.style),
        ...data.occurrences.map((o: any) => `occurrence\t${o.uid}\t${o.start_at}\t${o.end_at}\t${o.status}\n`),
        ...data.skipped.map((s: any) => `skipped\t${s.date}\t${s.start_at}\t${s.reason}\t${s.cause}\n`),
      ].join(''),
  );
}

/** The body of `create_series` (and of its preview) from the flags of `series create`. */
async function seriesBodyOf(ctx: RunContext): Promise<Record<string, unknown>> {
  const o = ctx.options;
  return defined({
    host_user_id: await hostIdOf(ctx, o.host),
    ...(await eventTypeOf(ctx, 'owner-by-default')),
    attendee: defined({ email: o.attendeeEmail, name: o.attendeeName, phone: o.phone }),
    frequency: o.frequency,
    weekdays: o.weekdays,
    interval_weeks: o.intervalWeeks,
    time: o.time,
    timezone: o.timezone,
    starts_on: o.startsOn,
    count: o.count,
    location_url: o.locationUrl,
    notify_invitee: o.notify === false ? false : undefined,
  });
}

/** The flags of a series' body, shared by `series create` and `series preview`. */
function withSeriesBodyOptions(command: Command): Command {
  return command
    .requiredOption('--host <username-or-id>', 'who hosts the meetings: whose calendar to book (someone you may act for)')
    .option('--event-type <id>', 'the event type (or --event-slug)')
    .option('--event-slug <slug>', "the event type's slug: the host's own, or --owner's")
    .option('--owner <username-or-id>', "the event type's owner (with --event-slug; default: the host)")
    .addOption(usernameOption())
    .requiredOption('--attendee-email <email>', 'who the meetings are with')
    .option('--attendee-name <name>', 'their name')
    .option('--phone <phone>', 'their phone')
    .requiredOption('--frequency <frequency>', 'weekly or monthly_same_day')
    .option('--weekdays <days>', 'weekly: comma-separated mon,tue,wed,thu,fri,sat,sun', weekdays)
    .option('--interval-weeks <n>', 'weekly: every n weeks, 1 to 8', wholeNumber('--interval-weeks'))
    .requiredOption('--time <HH:MM>', '24-hour wall clock in --timezone')
    .option('--timezone <zone>', "the series' zone (default: the host's)")
    .requiredOption('--starts-on <date>', 'YYYY-MM-DD, the first day the pattern is walked from')
    .requiredOption('--count <n>', 'how many meetings, 1 to 42', wholeNumber('--count'))
    .option('--location-url <url>', 'a fixed link for every meeting instead of generated ones')
    .option('--no-notify', 'send the attendee no mail about this series');
}

type Preview = {
  timezone: string;
  occurrences: { date: string; start_at: string; end_at: string }[];
  skipped: { date: string; start_at: string; cause: string }[];
};

/**
 * A preview's answer. On a terminal: every date in time order, booked or
 * skipped with its cause, in the series zone. Piped: one `occurrence` and
 * one `skipped` line each, as `series create` prints them.
 */
function showPreview(ctx: RunContext, data: Preview): void {
  const zone = data.timezone;
  const lines = [
    ...data.occurrences.map((o) => ({ at: o.start_at, text: `  ✓ ${rangeText(o.start_at, o.end_at, zone)}` })),
    ...data.skipped.map((s) => ({ at: s.start_at, text: `  ✗ ${instantText(s.start_at, zone)}  skipped: ${skipCauseText(s.cause)}` })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  showWrite(
    ctx,
    data,
    () =>
      [
        `${data.occurrences.length} of ${lines.length} dates would be booked (${zone}); nothing is booked or held until you run series create:\n`,
        ...lines.map((l) => `${l.text}\n`),
      ].join(''),
    () =>
      [
        ...data.occurrences.map((o) => `occurrence\t${o.date}\t${o.start_at}\t${o.end_at}\n`),
        ...data.skipped.map((s) => `skipped\t${s.date}\t${s.start_at}\tconflict\t${s.cause}\n`),
      ].join(''),
  );
}

/** `series create` from its flags: the scriptable command. */
function createSeries(command: Command): Promise<void> {
  return runCommand(command, async (ctx) => {
    const body = await seriesBodyOf(ctx);
    const key = ctx.key();
    const created = await withProgress('Creating the series…', () => ctx.call('create_series', { body, idempotencyKey: key }));
    showCreated(ctx, created.data as never);
  });
}

/** `schedule series …`: one command per series endpoint. */
export function registerSeries(program: Command): void {
  const series = program
    .command('series')
    .description('Recurring series: list, read, create, pause, resume, end, move to another host, update.');

  withCommonOptions(
    withPaging(series.command('list'))
      .description('List the series you can see, newest first.')
      .option('--status <list>', 'comma-separated: active, paused, ended')
      .option('--host <username-or-id>', 'only this host')
      .option('--event-type <id>', 'only this event type'),
  )
    .addHelpText('after', '\nExample:\n  schedule series list --status active,paused --host alice')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) =>
        listCommand(
          ctx,
          'list_series',
          defined({
            status: ctx.options.status,
            host_user_id: await hostIdOf(ctx, ctx.options.host),
            event_type_id: ctx.options.eventType,
          }),
          SERIES_COLUMNS,
        ),
      ),
    );

  withCommonOptions(series.command('get <uid>').description('Show one series and its version.'))
    .addHelpText('after', '\nExample:\n  schedule series get <uid> --json')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => showObject(ctx, (await ctx.call('get_series', { params: { uid } })).data)),
    );

  const create = withCommonOptions(
    withSeriesBodyOptions(
      series.command('create').description('Book a run of meetings; dates the host is not free are skipped, not shifted.'),
    ).option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        "  # Six meetings on alice's calendar, Mondays and Wednesdays at 10:00 in her zone, of her event type weekly-sync:",
        '  schedule series create --host alice --event-slug weekly-sync --attendee-email kim@example.com \\',
        '    --frequency weekly --weekdays mon,wed --time 10:00 --starts-on 2026-12-01 --count 6',
        "  # bob hosts, on alice's event type intro, every other Friday at 15:00 New York time:",
        '  schedule series create --host bob --owner alice --event-slug intro --attendee-email lee@example.com \\',
        '    --frequency weekly --interval-weeks 2 --weekdays fri --time 15:00 --timezone America/New_York --starts-on 2026-12-04 --count 8',
        '  # The same day every month (a month without that day is passed over), with a fixed link and no mail to the attendee:',
        '  schedule series create --host alice --event-slug intro --attendee-email ana@example.com --frequency monthly_same_day \\',
        '    --time 09:30 --starts-on 2026-12-15 --count 12 --location-url https://meet.example.com/ana --no-notify',
        '  # By event type id, as event-types list shows it, printing the series and its meetings as JSON:',
        '  schedule series create --host alice --event-type <id> --attendee-email kim@example.com \\',
        '    --frequency weekly --weekdays tue --time 14:00 --starts-on 2026-12-01 --count 4 --json',
        '',
        'On a terminal, schedule series create with none of these flags opens a wizard.',
      ].join('\n'),
    )
    .action((_, command: Command) => createSeries(command));
  offerSeriesWizard(create, createSeries);

  withCommonOptions(
    withSeriesBodyOptions(
      series
        .command('preview')
        .description('Show which dates `series create` with the same flags would book and skip, and why; books nothing.'),
    ),
  )
    .addHelpText(
      'after',
      '\nExample:\n  schedule series preview --host alice --event-slug weekly-sync \\\n    --attendee-email kim@example.com --frequency weekly --weekdays mon,wed --time 10:00 --starts-on 2026-12-01 --count 6',
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await withProgress('Checking the dates…', async () => ctx.call('preview_series', { body: await seriesBodyOf(ctx) }));
        showPreview(ctx, result.data as Preview);
      }),
    );

  withCommonOptions(
    series
      .command('pause <uid>')
      .description('Hold every future meeting (canceled without mail, owed until resumed).')
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule series pause <uid>')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await withProgress('Pausing the series…', () =>
          ctx.call('pause_series', { params: { uid }, idempotencyKey: ctx.key() }),
        );
        showAction(ctx, result.data, (r: Parameters<typeof seriesPausedText>[1]) => seriesPausedText(uid, r));
      }),
    );

  withCommonOptions(
    series
      .command('resume <uid>')
      .description('Book what a pause holds; dates not free stay owed (run it again later).')
      .option('--if-match <version>', 'refuse if the series changed since this version', ifMatchVersion)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule series resume <uid> --if-match 4')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const input = { params: { uid }, idempotencyKey: ctx.key(), ifMatch: ctx.options.ifMatch as string | undefined };
        const result = await withProgress('Resuming the series…', () => ctx.call('resume_series', input));
        showAction(ctx, result.data, (r: Parameters<typeof seriesResumedText>[1]) => seriesResumedText(uid, r));
      }),
    );

  withCommonOptions(
    series
      .command('end <uid>')
      .description('End the series for good: every future meeting is canceled, and the attendee told once.')
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule series end <uid>')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await withProgress('Ending the series…', () =>
          ctx.call('end_series', { params: { uid }, idempotencyKey: ctx.key() }),
        );
        showAction(ctx, result.data, (r: Parameters<typeof seriesEndedText>[1]) => seriesEndedText(uid, r));
      }),
    );

  withCommonOptions(
    series
      .command('move <uid>')
      .description('Move every future meeting, then the series, to another host.')
      .requiredOption('--host <username-or-id>', 'the new host (someone you may act for)')
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule series move <uid> --host bob')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const body = { host_user_id: await hostIdOf(ctx, ctx.options.host) };
        const result = await withProgress('Moving the series to its new host…', () =>
          ctx.call('change_series_host', { params: { uid }, body, idempotencyKey: ctx.key() }),
        );
        showAction(ctx, result.data, (r: Parameters<typeof seriesMovedText>[2]) => seriesMovedText(uid, ctx.options.host, r));
      }),
    );

  withCommonOptions(
    series
      .command('update <uid>')
      .description('Change the pattern (held meetings are rebooked), the fixed link, or whether the attendee gets mail.')
      .option('--frequency <frequency>', 'weekly or monthly_same_day')
      .option('--weekdays <days>', 'comma-separated mon..sun', weekdays)
      .option('--interval-weeks <n>', '1 to 8', wholeNumber('--interval-weeks'))
      .option('--time <HH:MM>', '24-hour wall clock')
      .option('--location-url <url>', 'replaces the fixed link (only a series that has one)')
      .option('--notify', 'mail the attendee from now on')
      .option('--no-notify', 'no more mail to the attendee')
      .option('--if-match <version>', 'the version you read (default: read it now)', ifMatchVersion)
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText('after', '\nExample:\n  schedule series update <uid> --time 11:00')
    .action((uid: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          frequency: o.frequency,
          weekdays: o.weekdays,
          interval_weeks: o.intervalWeeks,
          time: o.time,
          location_url: o.locationUrl,
          notify_invitee: command.getOptionValueSource('notify') === 'cli' ? o.notify : undefined,
        });
        const ifMatch = await ifMatchOf(ctx, 'get_series', uid);
        const result = (await ctx.call('update_series', { params: { uid }, body, idempotencyKey: ctx.key(), ifMatch })).data as Parameters<
          typeof seriesUpdatedText
        >[0] & { series: Record<string, unknown>; resumed: Record<string, unknown> | null };
        showWrite(
          ctx,
          result,
          () => confirmationLine(ctx.style, seriesUpdatedText(result)),
          () => renderObject({ ...result.series, resumed: result.resumed }, ctx.style),
        );
      }),
    );
}
