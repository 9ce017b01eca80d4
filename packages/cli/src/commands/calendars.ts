import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { defined, reportError, runCommand, showWrite, withCommonOptions } from '../command-context.js';
import { bookingUidOf } from '../input/booking-uid.js';
import { calendarResyncText } from '../output/confirmations.js';
import { EXIT_CODES } from '../output/exit-codes.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { readWorkspace } from '../workspace-file.js';
import { registerCalendarAccounts, testCalendarAccount } from './calendar-accounts.js';

const DAY_MS = 86_400_000;

/** What reading one conflict calendar gave. Feeds are named without credentials; events by UID only. */
export interface CalendarCheck {
  readonly user: string;
  readonly calendar: string;
  readonly readable: boolean;
  readonly busy: number;
  readonly skipped: readonly { uid: string; reason: string }[];
  readonly error?: string;
}

/** Reads every conflict calendar of the workspace's users (or of one) over the next `days`, as availability would. */
export async function checkCalendars(options: { workspace: string; user?: string | undefined; days: number }): Promise<CalendarCheck[]> {
  const [core, { workspace }] = await Promise.all([import('@schedule/core'), readWorkspace(options.workspace)]);
  const { icsFeedReader, calDavBusyReader, calDavConnector, calDavPasswords, createCalendarReader, systemClock, CalendarUnreadable } = core;
  const users = workspace.users.filter((u) => options.user === undefined || u.username === options.user);
  if (options.user !== undefined && users.length === 0)
    throw new CliError('usage', `--user ${options.user}: no such user in ${options.workspace}.`);
  const nowMs = systemClock.now();
  const range = { startMs: nowMs, endMs: nowMs + options.days * DAY_MS };
  const checks: Promise<CalendarCheck>[] = [];
  for (const user of users) {
    for (const calendar of user.calendars) {
      let skipped: { uid: string; reason: string }[] = [];
      // A reader per calendar, uncached: this command is about what the calendar says now.
      const onSkippedEvents = (_calendar: string, events: readonly { uid: string; reason: string }[]) =>
        (skipped = [...skipped, ...events]);
      const connector = calDavConnector({ clock: systemClock, passwordOf: calDavPasswords({ env: process.env }) });
      const reader = createCalendarReader(
        icsFeedReader({ clock: systemClock, cacheTtlMs: 0, onSkippedEvents }),
        calDavBusyReader({ clock: systemClock, connector, cacheTtlMs: 0, onSkippedEvents }),
      );
      const name = calendarName(core, calendar);
      checks.push(
        reader.busy([calendar], range, user.timezone).then(
          (busy) => ({ user: user.username, calendar: name, readable: true, busy: busy.length, skipped }),
          (error: unknown) => {
            if (!(error instanceof CalendarUnreadable)) throw error;
            return { user: user.username, calendar: name, readable: false, busy: 0, skipped, error: error.message };
          },
        ),
      );
    }
  }
  return Promise.all(checks);
}

/** A calendar as the check names it: a feed by its URL and an account as user@host, both without credentials. */
function calendarName(
  core: typeof import('@schedule/core'),
  calendar: { kind: 'static' } | { kind: 'ics'; url: string } | { kind: 'caldav'; url: string; username: string },
): string {
  switch (calendar.kind) {
    case 'static':
      return 'static';
    case 'ics':
      return core.feedUrlShown(calendar.url);
    case 'caldav':
      return `${calendar.username}@${new URL(calendar.url).host}`;
  }
}

/** One line per calendar, for a person. */
export function calendarChecksText(checks: readonly CalendarCheck[], days: number): string {
  if (checks.length === 0) return 'No conflict calendars are configured.\n';
  return checks
    .map((c) => {
      const head = `${c.user}  ${c.calendar}  `;
      if (!c.readable) return `${head}unreadable: ${c.error}`;
      const skipped =
        c.skipped.length === 0
          ? ''
          : `; ${c.skipped.length} event(s) skipped: ${c.skipped.map((s) => `${s.uid} (${s.reason})`).join(', ')}`;
      return `${head}read: ${c.busy} busy time(s) in the next ${days} day(s)${skipped}`;
    })
    .map((line) => `${line}\n`)
    .join('');
}

/** `schedule calendars test`: reads each conflict calendar of a workspace file the way availability will, and says what it found. */
export function registerCalendars(program: Command): void {
  const calendars = program
    .command('calendars')
    .description("Hosts' conflict calendars: check them, connect CalDAV accounts, and write bookings to them again.");
  const test = calendars
    .command('test')
    .description('Read every conflict calendar in a workspace file now, or one CalDAV account (--id): busy times found, events skipped.')
    .option('--id <id>', 'test this CalDAV account (cal_…) through the API or the database instead of a workspace file')
    .option('--user <name>', "only this user's calendars")
    .option('--days <n>', 'how far ahead to read', '7');
  // The common options (--workspace among them: the file to read, or to load first with --id) come after the command's own.
  withCommonOptions(test)
    .addHelpText(
      'after',
      '\nExits 0 when every calendar was read (events may still have been skipped), 6 when one could not be read.\nExamples:\n  schedule calendars test --workspace workspace.json --user alice\n  schedule calendars test --id cal_3f2a9c0e8b7d4e61a5c2f0d9b8e7a6c5',
    )
    .action(async (options: { workspace?: string; id?: string; user?: string; days: string; json?: boolean }, command: Command) => {
      if (options.id !== undefined) return runCommand(command, (ctx) => testCalendarAccount(ctx, String(options.id)));
      try {
        if (options.workspace === undefined)
          throw new CliError('usage', 'Give --workspace <file> to read its calendars, or --id <id> to test one account.');
        const days = Number(options.days);
        if (!Number.isInteger(days) || days < 1 || days > 366)
          throw new CliError('usage', `--days ${options.days}: give a whole number of days from 1 to 366.`);
        const checks = await checkCalendars({ workspace: options.workspace, user: options.user, days });
        process.stdout.write(options.json ? `${JSON.stringify(checks, null, 2)}\n` : calendarChecksText(checks, days));
        process.exitCode = checks.every((c) => c.readable) ? EXIT_CODES.ok : EXIT_CODES.retry;
      } catch (error) {
        reportError(error, false);
      }
    });
  registerCalendarAccounts(calendars);
  registerResync(calendars);
}

/** `schedule calendars resync`: writes one booking's event again, or every failed one of a host (docs/calendars.md "Writing it again"). */
function registerResync(calendars: Command): void {
  withCommonOptions(
    calendars
      .command('resync')
      .description("Write bookings' calendar events again: every failed one of a host, or one booking's (--booking).")
      .option('--booking <uid>', "this booking's event, whatever its sync status (its uid, or a unique start of it)")
      .option('--user <username-or-id>', "whose failed ones (default: yours; someone's you act for)")
      .option('--idempotency-key <key>', 'the key (default: a new one per invocation)'),
  )
    .addHelpText(
      'after',
      [
        '',
        'The events are written by the server in the background: calendar_sync_status shows pending until then.',
        '',
        'Examples:',
        '  schedule calendars resync',
        '  schedule calendars resync --user alice',
        '  schedule calendars resync --booking 3f2a9c0e',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        if (o.booking !== undefined && o.user !== undefined) throw new CliError('usage', '--booking and --user exclude each other.');
        const body = defined({
          booking_uid: o.booking === undefined ? undefined : await bookingUidOf(ctx, String(o.booking)),
          user: o.user,
        });
        const { data } = await ctx.call('resync_calendar', { body, idempotencyKey: ctx.key() });
        showWrite(
          ctx,
          data,
          () => confirmationLine(ctx.style, calendarResyncText(data as Parameters<typeof calendarResyncText>[0])),
          () => renderObject(data as Record<string, unknown>, ctx.style),
        );
      }),
    );
}
