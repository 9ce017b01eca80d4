import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import type { EmbeddedBackend } from '../backend/embedded.js';
import { type RunContext, runCommand, show, withCommonOptions } from '../command-context.js';
import { renderList, renderObject } from '../output/render.js';
import { TOKEN_COLUMNS } from './columns.js';

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** Tokens live in the server's own database: these commands need it, not a token. */
function localStore(ctx: RunContext) {
  if (ctx.backend.mode !== 'embedded')
    throw new CliError('usage', "Tokens are made on the server's database: use --db (or $DATABASE_URL), not --api-url.");
  return (ctx.backend as EmbeddedBackend).store;
}

async function core() {
  return import('@schedule/core');
}

/** `schedule tokens create|list|revoke`. */
export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('Personal access tokens, on the local database.');

  withCommonOptions(tokens.command('create'))
    .description('Make a token for a user; its secret is printed once and stored only as a hash.')
    .requiredOption('--user <username-or-id>', 'whom the token acts as')
    .requiredOption('--name <name>', 'a name to know it by')
    .requiredOption('--scope <scopes>', 'scopes, comma-separated or repeated (e.g. bookings:read,slots:read)', collect)
    .option('--expires-at <iso>', 'when it stops working')
    .addHelpText(
      'after',
      '\nExample:\n  schedule tokens create --user alice --name laptop --scope bookings:read,bookings:create,slots:read',
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { createToken, isScheduleError, randomIds, systemClock } = await core();
        try {
          const { token, secret } = await createToken(
            localStore(ctx).db,
            { clock: systemClock, ids: randomIds },
            { user: ctx.options.user, name: ctx.options.name, scopes: ctx.options.scope, expiresAt: ctx.options.expiresAt },
          );
          show(ctx, { ...token, secret }, () => renderObject({ ...token, secret }, ctx.style));
          if (ctx.style.tty) process.stderr.write('The secret is shown this once; it is stored only as a hash.\n');
        } catch (error) {
          if (isScheduleError(error)) throw new CliError(error.code, error.message, error.details);
          throw error;
        }
      }),
    );

  withCommonOptions(tokens.command('list'))
    .description('List every token (never its secret).')
    .addHelpText('after', '\nExample:\n  schedule tokens list --db ./schedule.db')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { listTokens } = await core();
        const all = await listTokens(localStore(ctx).db);
        show(ctx, all, () => renderList(all, TOKEN_COLUMNS, ctx.style));
      }),
    );

  withCommonOptions(tokens.command('revoke <id-or-name>'))
    .description('Revoke a token; it stops working at once on this process, within TOKEN_CACHE_MS on servers.')
    .addHelpText('after', '\nExample:\n  schedule tokens revoke laptop')
    .action((idOrName: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { isScheduleError, revokeToken, systemClock } = await core();
        try {
          const token = await revokeToken(localStore(ctx).db, { clock: systemClock }, idOrName);
          show(ctx, token, () => renderObject(token, ctx.style));
        } catch (error) {
          if (isScheduleError(error)) throw new CliError(error.code, error.message, error.details);
          throw error;
        }
      }),
    );
}
