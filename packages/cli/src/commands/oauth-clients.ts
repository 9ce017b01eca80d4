import type { Command } from 'commander';
import { asCliErrors } from '../backend/core-refusals.js';
import { runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { oauthClientCreatedText, oauthClientRevokedText } from '../output/confirmations.js';
import { confirmationLine, renderList, renderObject } from '../output/render.js';
import { OAUTH_CLIENT_COLUMNS } from './columns.js';
import { localStore } from './local-store.js';

// `schedule oauth-clients create|list|revoke`: the apps that may ask hosts
// for access (docs/oauth.md). Registered by an operator here or in the
// workspace file, or by the apps themselves; all are listed and revoked here.

const CLIENTS = 'OAuth clients are kept';

/** Each --redirect-uri as typed: a URI may hold a comma, so they are not split. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

async function core() {
  return import('@schedule/core');
}

/** `schedule oauth-clients create|list|revoke`. */
export function registerOAuthClients(program: Command): void {
  const clients = program
    .command('oauth-clients')
    .description('Apps that may ask hosts for access through the sign-in and consent pages (OAuth), on the local database.');

  withCommonOptions(
    clients
      .command('create')
      .description('Register an app; a confidential one gets a secret, printed this once.')
      .requiredOption('--name <name>', 'the name hosts see on the consent page')
      .requiredOption('--redirect-uri <uri>', 'where the app receives its code; repeat for several (up to 10)', collect)
      .option('--confidential', 'the app keeps a secret on a server (default: public, proving itself with PKCE only)'),
    'local',
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule oauth-clients create --name "Desktop app" --redirect-uri http://127.0.0.1/callback',
        '  schedule oauth-clients create --name CRM --redirect-uri https://crm.example/oauth/callback --confidential',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { createOAuthClient, listOAuthClients, systemClock } = await core();
        const db = localStore(ctx, CLIENTS).db;
        const request = {
          client_name: String(ctx.options.name),
          redirect_uris: ctx.options.redirectUri as string[],
          confidential: ctx.options.confidential === true,
        };
        const created = await asCliErrors(() => createOAuthClient(db, { clock: systemClock }, request));
        // Shown as `list` shows it, but for the grants a new client cannot have yet.
        const { grants: _none, ...client } = (await listOAuthClients(db)).find((c) => c.client_id === created.client_id)!;
        const shown = created.client_secret === null ? client : { ...client, client_secret: created.client_secret };
        showWrite(
          ctx,
          shown,
          () => confirmationLine(ctx.style, oauthClientCreatedText(client, created.client_secret)),
          () => renderObject(shown, ctx.style),
        );
        if (ctx.style.tty && created.client_secret !== null) {
          process.stderr.write('The secret is shown this once: oauth-clients list never shows it. Give it to the app now.\n');
        }
      }),
    );

  withCommonOptions(
    clients
      .command('list')
      .description('List the apps, each with who has authorized it (never a secret).')
      .option('--user <username-or-id>', 'only the apps this user has authorized, with only their grants'),
    'local',
  )
    .addHelpText('after', '\nExamples:\n  schedule oauth-clients list\n  schedule oauth-clients list --user alice --json')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const { findUser, listOAuthClients } = await core();
        const db = localStore(ctx, CLIENTS).db;
        let all = await listOAuthClients(db);
        if (ctx.options.user !== undefined) {
          const user = await asCliErrors(() => findUser(db, String(ctx.options.user)));
          all = all.map((c) => ({ ...c, grants: c.grants.filter((g) => g.user.user_id === user.id) })).filter((c) => c.grants.length > 0);
        }
        show(ctx, all, () => renderList(all, OAUTH_CLIENT_COLUMNS, ctx.style));
      }),
    );

  withCommonOptions(
    clients
      .command('revoke <client-id>')
      .description('Revoke an app: for everyone (its grants and tokens end and the app is removed), or with --user for that user only.')
      .option('--user <username-or-id>', "end only this user's grants to the app; the app stays registered"),
    'local',
  )
    .addHelpText(
      'after',
      '\nExamples:\n  schedule oauth-clients revoke app_Zm9vYmFyYmF6cXV4\n  schedule oauth-clients revoke app_Zm9vYmFyYmF6cXV4 --user alice',
    )
    .action((clientId: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { findUser, revokeOAuthClient } = await core();
        const db = localStore(ctx, CLIENTS).db;
        const user = ctx.options.user === undefined ? undefined : await asCliErrors(() => findUser(db, String(ctx.options.user)));
        const { grants } = await asCliErrors(() => revokeOAuthClient(db, clientId, user ? { userId: user.id } : {}));
        const result = {
          client_id: clientId,
          username: user?.username ?? null,
          grants_revoked: grants,
          client_removed: user === undefined,
        };
        showWrite(
          ctx,
          result,
          () => confirmationLine(ctx.style, oauthClientRevokedText(result)),
          () => renderObject(result, ctx.style),
        );
      }),
    );
}
