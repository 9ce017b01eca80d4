import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { asCliErrors } from '../backend/core-refusals.js';
import { runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { typedTime } from '../input/time-flags.js';
import { isDateOnly } from '../input/typed-time.js';
import { tokenCreatedText, tokenRevokedText } from '../output/confirmations.js';
import { confirmationLine, renderList, renderObject } from '../output/render.js';
import { TOKEN_COLUMNS } from './columns.js';
import { localStore } from './local-store.js';

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** A time with its offset, as typed-time.ts sends one: the only shape an expiry is stored from. */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * `--expires-at` as stored: UTC ISO, as every stored instant is (the token
 * check compares them as text). No API stands between this command and the
 * database to refuse a bad one, so the command does. A date alone means its
 * first moment in --tz.
 */
function expiryOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ms = WITH_OFFSET.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new CliError(
      'usage',
      `--expires-at ${text} is not a time; give one such as 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.`,
    );
  }
  return new Date(ms).toISOString();
}

/** Tokens live in the server's own database: these commands need it, not a token. */
const TOKENS = 'Tokens are made';

async function core() {
  return import('@schedule/core');
}

/** `schedule tokens create|list|revoke`. */
export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('Personal access tokens, on the local database.');

  withCommonOptions(
    tokens
      .command('create')
      .description('Make a token for a user; its secret is printed once and stored only as a hash.')
      .requiredOption('--user <username-or-id>', 'whom the token acts as')
      .requiredOption('--name <name>', 'a name to know it by, unique among the tokens (revoke takes it)')
      .requiredOption('--scope <scopes>', 'scopes, comma-separated or repeated (e.g. bookings:read,slots:read)', collect)
      .option('--expires-at <iso>', 'when it stops working: a time (without an offset: in --tz), or a date (its start in --tz)', (text) =>
        typedTime(isDateOnly(text) ? `${text}T00:00` : text),
      ),
    'local',
  )
    .addHelpText(
      'after',
      '\nExample:\n  schedule tokens create --user alice --name laptop --scope bookings:read,bookings:create,slots:read --expires-at 2027-01-01',
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { createToken, listTokens, randomIds, systemClock } = await core();
        const db = localStore(ctx, TOKENS).db;
        const name = String(ctx.options.name);
        // A name picks a token for `tokens revoke`, so two alike would make it ambiguous; revoked ones keep theirs.
        if ((await listTokens(db)).some((t) => t.name === name)) {
          throw new CliError('token_name_taken', `A token named "${name}" exists already (perhaps revoked); give another --name.`, {
            name,
          });
        }
        const request = { user: ctx.options.user, name, scopes: ctx.options.scope, expiresAt: expiryOf(ctx.options.expiresAt) };
        const { token, secret } = await asCliErrors(() => createToken(db, { clock: systemClock, ids: randomIds }, request));
        const shown = { ...token, secret };
        showWrite(
          ctx,
          shown,
          () => confirmationLine(ctx.style, tokenCreatedText(token, secret)),
          () => renderObject(shown, ctx.style),
        );
        if (ctx.style.tty) process.stderr.write('The secret is shown this once; it is stored only as a hash.\n');
      }),
    );

  withCommonOptions(tokens.command('list').description('List every token (never its secret).'), 'local')
    .addHelpText('after', '\nExample:\n  schedule tokens list --db ./schedule.db')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { listTokens } = await core();
        const all = await listTokens(localStore(ctx, TOKENS).db);
        show(ctx, all, () => renderList(all, TOKEN_COLUMNS, ctx.style));
      }),
    );

  withCommonOptions(
    tokens
      .command('revoke <id-or-name>')
      .description('Revoke a token; it stops working at once on this process, within TOKEN_CACHE_MS on servers.'),
    'local',
  )
    .addHelpText('after', '\nExample:\n  schedule tokens revoke laptop')
    .action((idOrName: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { revokeToken, systemClock } = await core();
        const token = await asCliErrors(() => revokeToken(localStore(ctx, TOKENS).db, { clock: systemClock }, idOrName));
        showWrite(
          ctx,
          token,
          () => confirmationLine(ctx.style, tokenRevokedText(token)),
          () => renderObject(token, ctx.style),
        );
      }),
    );
}
