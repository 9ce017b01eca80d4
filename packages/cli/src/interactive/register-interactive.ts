import { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { reportError, withCommonOptions } from '../command-context.js';
import { isInteractive } from './terminal.js';

// The terminal UI's commands and hooks. Nothing here loads ink or React:
// each command imports its UI when it runs (issue 6, "Fast start").

const BOOK_IS_INTERACTIVE = 'schedule book is interactive; use `schedule bookings create --event-type ... --start ...` in scripts';

/** `schedule book` and `schedule agenda`. */
export function registerInteractive(program: Command): void {
  withCommonOptions(
    program
      .command('book')
      .description('Book a meeting by hand: pick an event type, browse a week of free times, confirm. Terminals only.'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Keys: arrows move, n/p next or previous week, enter picks, esc quits.',
        'In scripts, use: schedule bookings create --event-type <id> --start <iso> --attendee-email <email>',
        '',
        'Example:',
        '  schedule book --api-url https://schedule.example.com',
      ].join('\n'),
    )
    .action(async (_, command: Command) => {
      if (!isInteractive()) return reportError(new CliError('usage', BOOK_IS_INTERACTIVE), false);
      const { book } = await import('./book-command.js');
      await book(command);
    });

  withCommonOptions(
    program
      .command('agenda')
      .description(
        "Your upcoming confirmed bookings, by day, in your time zone (your profile's, or --tz); on a terminal, cancel or reschedule one.",
      )
      .option('--days <n>', 'how many days ahead, 1 to 366 (default: 7)'),
  )
    .addHelpText(
      'after',
      [
        '',
        "Times and days are in your profile's time zone (schedule whoami), or --tz. With a token that sees other",
        "people's meetings, a host column shows whose each one is.",
        '',
        'On a terminal: ↑/↓ choose a meeting, c cancel it (a reason for the attendee, then a confirmation), r reschedule it',
        '(a free time picked on the week grid of schedule book, then a confirmation), enter for both as a menu, q quit.',
        '',
        'Piped, each booking is one tab-separated line: day (in that zone), start, end (UTC), uid, host, attendee, title.',
        '',
        'Examples:',
        '  schedule agenda',
        '  schedule agenda --days 14 --json',
      ].join('\n'),
    )
    .action(async (_, command: Command) => {
      const { agenda } = await import('./agenda.js');
      await agenda(command);
    });
}

/** The options of `series create` that are not about where to run or how to print: giving any of them means "no wizard". */
function fieldOptions(create: Command): readonly string[] {
  const common = new Set([...withCommonOptions(new Command()).options.map((o) => o.attributeName()), 'idempotencyKey']);
  return create.options.map((o) => o.attributeName()).filter((name) => !common.has(name));
}

/**
 * `schedule series create` with none of its own flags, on a terminal, opens
 * the wizard. Elsewhere nothing changes: not on a terminal, commander still
 * refuses missing required options exactly as before; with flags, the
 * scriptable command runs (`scripted`) after the same checks.
 */
export function offerSeriesWizard(create: Command, scripted: (command: Command) => Promise<void>): void {
  if (!isInteractive()) return;
  const required = create.options.filter((o) => o.mandatory);
  // Checked below instead, once we know whether any flag was given.
  for (const option of required) option.mandatory = false;
  const fields = fieldOptions(create);
  create.action(async (_, command: Command) => {
    if (fields.every((name) => command.getOptionValueSource(name) !== 'cli')) {
      const { seriesWizard } = await import('./series-wizard-command.js');
      return seriesWizard(command);
    }
    for (const option of required) {
      if (command.getOptionValue(option.attributeName()) === undefined) {
        // commander's own wording (Command.missingMandatoryOptionValue), so the message is the same either way.
        command.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
      }
    }
    await scripted(command);
  });
}
