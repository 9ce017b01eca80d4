import { type Command, Option } from 'commander';
import { CliError } from '../backend/backend.js';
import { defined, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { askHidden } from '../input/password-input.js';
import { inCi } from '../interactive/terminal.js';
import { calendarAddedText, calendarRemovedText } from '../output/confirmations.js';
import { confirmationLine, renderList, renderObject } from '../output/render.js';
import { CALENDAR_COLUMNS } from './columns.js';
import { passwordFromStdin } from './passwords.js';

// `schedule calendars add|list|get|remove`, and `calendars test --id`: the
// CalDAV accounts of docs/calendars.md "Connecting a CalDAV account". The
// password is never an argument (shell history and `ps` keep those): it is
// read from an environment variable, from stdin, or typed without echo.

const KEY_OPTION = ['--idempotency-key <key>', 'the key (default: a new one per invocation)'] as const;

/** `--busy Work,Family`: the names as a list, for the API to check against the account. */
const names = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** The account's password: from `--password-env VAR`, `--password-stdin`, or asked at a terminal. */
async function accountPassword(options: Record<string, unknown>, username: string): Promise<string> {
  if (options.password !== undefined) {
    throw new CliError(
      'usage',
      'A password is never an argument (shell history and ps would keep it): use --password-env VAR, --password-stdin, or leave them out to be asked.',
    );
  }
  if (typeof options.passwordEnv === 'string') {
    const value = process.env[options.passwordEnv];
    if (value === undefined || value === '')
      throw new CliError('usage', `--password-env ${options.passwordEnv}: that variable is not set.`);
    return value;
  }
  if (options.passwordStdin) return passwordFromStdin();
  const stdin = process.stdin as NodeJS.ReadStream;
  if (stdin.isTTY !== true || inCi())
    throw new CliError('usage', 'Give the password with --password-env VAR or --password-stdin, or run this at a terminal to be asked.');
  return askHidden(`Password for ${username}: `, stdin, process.stderr);
}

/** The answer of `test_calendar`: one line per calendar found. */
function accountTestText(data: { id: string; calendars: { name: string; url: string; busy: boolean; book_into: boolean }[] }): string {
  if (data.calendars.length === 0) return `${data.id}  read: no event calendars found\n`;
  return data.calendars
    .map((c) => `${data.id}  ${c.name}  ${c.url}${c.busy ? '  busy' : ''}${c.book_into ? '  book_into' : ''}\n`)
    .join('');
}

/** `calendars test --id cal_…`: reads one account now through the API (or the local database). */
export async function testCalendarAccount(ctx: RunContext, id: string): Promise<void> {
  const { data } = await ctx.call('test_calendar', { params: { calendar_id: id } });
  show(ctx, data, () => accountTestText(data as Parameters<typeof accountTestText>[0]));
}

/** Adds `add`, `list`, `get` and `remove` to `schedule calendars`. */
export function registerCalendarAccounts(calendars: Command): void {
  withCommonOptions(
    calendars
      .command('add')
      .description('Connect a CalDAV account: its calendars are discovered from the URL and checked before it is stored.')
      .requiredOption('--url <url>', 'the CalDAV server (or principal, or calendar) URL')
      .requiredOption('--username <name>', 'the username on that server')
      .option('--password-env <var>', 'read the password (or app password) from this environment variable')
      .option('--password-stdin', 'read the password from the first line of stdin')
      .option('--busy <names>', 'comma-separated calendars whose events block time (default: all)', names)
      .option('--book-into <name>', 'the calendar bookings are written to (default: the first)')
      .option('--read-only', 'write no bookings to this account')
      .option('--user <username-or-id>', "whose account (default: yours; someone's you act for)")
      .addOption(new Option('--password <password>').hideHelp())
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      [
        '',
        'The server needs CALENDAR_KEY to store the password (sealed). Without --password-env or --password-stdin you are asked for it.',
        '',
        'Examples:',
        '  schedule calendars add --url https://cloud.example.com/remote.php/dav --username alice --busy Work,Family --book-into Work',
        '  CALDAV_PASSWORD=… schedule calendars add --url https://dav.example.com/ --username alice --password-env CALDAV_PASSWORD',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        if (o.readOnly && o.bookInto !== undefined) throw new CliError('usage', '--read-only and --book-into exclude each other.');
        const password = await accountPassword(o, String(o.username));
        const body = defined({
          url: o.url,
          username: o.username,
          password,
          busy_calendars: o.busy,
          book_into: o.readOnly ? null : o.bookInto,
          user: o.user,
        });
        const { data } = await ctx.call('add_calendar', { body, idempotencyKey: ctx.key() });
        showWrite(
          ctx,
          data,
          () => confirmationLine(ctx.style, calendarAddedText(data as Parameters<typeof calendarAddedText>[0])),
          () => renderObject(data as Record<string, unknown>, ctx.style),
        );
      }),
    );

  withCommonOptions(
    calendars
      .command('list')
      .description('List CalDAV accounts: the workspace file’s and those added here. Never their passwords.')
      .option('--user <username-or-id>', "whose accounts (default: yours; someone's you act for)"),
  )
    .addHelpText('after', '\nExample:\n  schedule calendars list --json')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('list_calendars', { query: defined({ user: ctx.options.user }) });
        show(ctx, data, () => renderList(data as unknown[], CALENDAR_COLUMNS, ctx.style));
      }),
    );

  withCommonOptions(calendars.command('get <id>').description('Show one CalDAV account (never its password).'))
    .addHelpText('after', '\nExample:\n  schedule calendars get cal_3f2a9c0e8b7d4e61a5c2f0d9b8e7a6c5')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('get_calendar', { params: { calendar_id: id } });
        show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
      }),
    );

  withCommonOptions(
    calendars
      .command('remove <id>')
      .description('Remove a CalDAV account added here; the workspace file’s own are removed from the file.')
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule calendars remove cal_3f2a9c0e8b7d4e61a5c2f0d9b8e7a6c5')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('remove_calendar', { params: { calendar_id: id }, idempotencyKey: ctx.key() });
        showWrite(
          ctx,
          data,
          () => confirmationLine(ctx.style, calendarRemovedText(data as Parameters<typeof calendarRemovedText>[0])),
          () => renderObject(data as Record<string, unknown>, ctx.style),
        );
      }),
    );
}
