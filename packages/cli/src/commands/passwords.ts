import { type Command, Option } from 'commander';
import { CliError } from '../backend/backend.js';
import { asCliErrors } from '../backend/core-refusals.js';
import { runCommand, showWrite, withCommonOptions } from '../command-context.js';
import { askHidden, readFirstLine } from '../input/password-input.js';
import { inCi } from '../interactive/terminal.js';
import { passwordClearedText, passwordSetText } from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { localStore } from './local-store.js';

// `schedule passwords set|clear`: the password a host signs in with on the
// authorization pages (docs/oauth.md). It is never a command-line argument,
// which would be kept in shell history and shown by `ps`.

const PASSWORDS = 'Passwords are set';

async function core() {
  return import('@schedule/core');
}

/** The first line of stdin; an empty stdin is a mistake worth naming, not a short password. */
export async function passwordFromStdin(): Promise<string> {
  const line = await readFirstLine(process.stdin);
  // The rest is not ours to read; a writer that keeps the pipe open must not keep the command waiting.
  process.stdin.destroy();
  if (line === undefined) throw new CliError('usage', '--password-stdin read nothing: pipe the password in, on one line.');
  return line;
}

/**
 * Asked twice at the terminal, without echo. The length is checked after
 * the first answer, so nobody types a refused password twice.
 */
async function passwordFromTerminal(username: string, check: (password: string) => Promise<void>): Promise<string> {
  const stdin = process.stdin as NodeJS.ReadStream;
  if (stdin.isTTY !== true || inCi()) {
    throw new CliError(
      'usage',
      'Give the password on stdin with --password-stdin, or run this at a terminal to be asked for it; it is never an argument.',
    );
  }
  const first = await askHidden(`New password for ${username}: `, stdin, process.stderr);
  await check(first);
  const again = await askHidden('Type it again: ', stdin, process.stderr);
  if (again !== first) throw new CliError('usage', 'The two passwords differ; nothing was changed.');
  return first;
}

/** `schedule passwords set|clear`. */
export function registerPasswords(program: Command): void {
  const passwords = program
    .command('passwords')
    .description('Sign-in passwords for the authorization pages (OAuth), on the local database.');

  withCommonOptions(
    passwords
      .command('set')
      .description("Set a user's sign-in password: asked twice without echo, or read from stdin; never an argument.")
      .requiredOption('--user <username-or-id>', 'whose password')
      .option('--password-stdin', 'read the password from the first line of stdin (for scripts)')
      // Not an option, but named so that whoever tries it learns why and what to use instead.
      .addOption(new Option('--password <password>').hideHelp()),
    'local',
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule passwords set --user alice                    # asks twice',
        '  pass show schedule/alice | schedule passwords set --user alice --password-stdin',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        if (ctx.options.password !== undefined) {
          throw new CliError(
            'usage',
            'A password is never an argument (shell history and ps would keep it): pipe it in with --password-stdin, or leave both out to be asked.',
          );
        }
        const { assertPasswordLength, findUser, setPassword, systemClock } = await core();
        const db = localStore(ctx, PASSWORDS).db;
        // The user first: nobody should type a password twice to learn the name was wrong.
        const user = await asCliErrors(() => findUser(db, String(ctx.options.user)));
        const password = ctx.options.passwordStdin
          ? await passwordFromStdin()
          : await passwordFromTerminal(user.username, (typed) => asCliErrors(() => assertPasswordLength(typed)));
        const result = await asCliErrors(() => setPassword(db, { clock: systemClock }, user.id, password));
        showWrite(
          ctx,
          result,
          () => confirmationLine(ctx.style, passwordSetText(result.username)),
          () => renderObject(result, ctx.style),
        );
      }),
    );

  withCommonOptions(
    passwords
      .command('clear')
      .description("Remove a user's password: they can no longer sign in, and their open sign-ins end (apps keep their grants).")
      .requiredOption('--user <username-or-id>', 'whose password'),
    'local',
  )
    .addHelpText('after', '\nExample:\n  schedule passwords clear --user alice')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { clearPassword, systemClock } = await core();
        const db = localStore(ctx, PASSWORDS).db;
        const result = await asCliErrors(() => clearPassword(db, { clock: systemClock }, String(ctx.options.user)));
        showWrite(
          ctx,
          result,
          () => confirmationLine(ctx.style, passwordClearedText(result.username)),
          () => renderObject(result, ctx.style),
        );
      }),
    );
}
