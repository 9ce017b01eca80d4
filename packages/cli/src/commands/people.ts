import type { Command } from 'commander';
import { defined, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { booleanFlag } from '../input/boolean-flag.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import {
  personCreatedText,
  personDeactivatedText,
  personUpdatedText,
  tokenCreatedText,
  tokenRevokedText,
} from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { PERSON_COLUMNS, TOKEN_COLUMNS } from './columns.js';
import { listCommand, withPaging } from './list-pages.js';

const KEY_OPTION = ['--idempotency-key <key>', 'the key (default: a new one per invocation)'] as const;

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A write's answer: one line on a terminal (`say`), the object's lines piped, the data with --json. */
function showPersonWrite<T>(ctx: RunContext, data: unknown, say: (data: T) => string): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, say(data as T)),
    () => renderObject(data as Record<string, unknown>, ctx.style),
  );
}

/** The version to send as If-Match: `--if-match`, else the version read just now. */
async function personIfMatch(ctx: RunContext, user: string): Promise<string> {
  if (ctx.options.ifMatch !== undefined) return String(ctx.options.ifMatch);
  const current = await ctx.call('get_person', { params: { user_id: user } });
  return String((current.data as { version: number }).version);
}

/** `schedule people …` (docs/api/people.md): one command per people endpoint, and the caller's own tokens. */
export function registerPeople(program: Command): void {
  const people = program
    .command('people')
    .description('People of the organization: list, show, add, change, deactivate, reactivate; and your own tokens.');

  withCommonOptions(withPaging(people.command('list')).description('List the people you may act for, by username.'))
    .addHelpText('after', '\nExample:\n  schedule people list --json')
    .action((_, command: Command) => runCommand(command, (ctx) => listCommand(ctx, 'list_people', {}, PERSON_COLUMNS)));

  withCommonOptions(people.command('get <user>').description('Show one person (username, id, or me) and their version.'))
    .addHelpText('after', '\nExample:\n  schedule people get me')
    .action((user: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('get_person', { params: { user_id: user } });
        show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
      }),
    );

  withCommonOptions(
    people
      .command('create')
      .description('Add a person (admins and owners). Give them a first token with `people tokens create --user`.')
      .requiredOption('--username <name>', 'letters, digits, dot, dash or underscore; cannot change later')
      .requiredOption('--email <email>', 'where their mail goes')
      .requiredOption('--name <name>', 'their name, as attendees see it')
      .option('--timezone <zone>', 'an IANA zone (default: UTC)')
      .option('--role <role>', 'user (default), manager, admin, or owner (only an owner grants it)')
      .option('--manages <list>', 'for a manager: usernames or ids, comma-separated', list)
      .option('--reminders <true|false>', 'false: no reminders for the meetings they host (default: true)', booleanFlag)
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      '\nExample:\n  schedule people create --username bea --email bea@acme.test --name "Bea Host" --timezone Europe/Paris',
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          username: o.username,
          email: o.email,
          name: o.name,
          timezone: o.timezone,
          role: o.role,
          manages: o.manages,
          reminders: o.reminders,
        });
        showPersonWrite(ctx, (await ctx.call('create_person', { body, idempotencyKey: ctx.key() })).data, personCreatedText);
      }),
    );

  withCommonOptions(
    people
      .command('update <user>')
      .description('Change a profile (name, email, zone, reminders), or a role and whom a manager manages (admins and owners).')
      .option('--name <name>', 'their name')
      .option('--email <email>', 'their email')
      .option('--timezone <zone>', 'an IANA zone')
      .option('--role <role>', 'user, manager, admin or owner')
      .option('--manages <list>', 'replaces the list: usernames or ids, comma-separated', list)
      .option('--reminders <true|false>', 'false: no reminders for the meetings they host', booleanFlag)
      .option('--if-match <version>', 'the version you read (default: read it now)', ifMatchVersion)
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  schedule people update me --timezone Europe/Lisbon\n  schedule people update bea --role manager --manages carl',
    )
    .action((user: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({
          name: o.name,
          email: o.email,
          timezone: o.timezone,
          role: o.role,
          manages: o.manages,
          reminders: o.reminders,
        });
        const ifMatch = await personIfMatch(ctx, user);
        const { data } = await ctx.call('update_person', { params: { user_id: user }, body, idempotencyKey: ctx.key(), ifMatch });
        showPersonWrite(ctx, data, personUpdatedText);
      }),
    );

  for (const action of ['deactivate', 'reactivate'] as const) {
    const description =
      action === 'deactivate'
        ? 'Deactivate a person: their tokens stop and their event types take no bookings; bookings and series stay.'
        : 'Reactivate a person: their tokens that were not revoked work again.';
    withCommonOptions(
      people
        .command(`${action} <user>`)
        .description(description)
        .option(...KEY_OPTION),
    )
      .addHelpText('after', `\nExample:\n  schedule people ${action} bea`)
      .action((user: string, _, command: Command) =>
        runCommand(command, async (ctx) => {
          const input = { params: { user_id: user }, idempotencyKey: ctx.key() };
          showPersonWrite(ctx, (await ctx.call(`${action}_person`, input)).data, personDeactivatedText);
        }),
      );
  }

  registerOwnTokens(people);
}

/**
 * `schedule people tokens …`: the caller's own tokens through the API (or the
 * embedded core), as its token allows. `schedule tokens` stays the
 * operator's, on the server's database, for any user and without a token.
 */
function registerOwnTokens(people: Command): void {
  const tokens = people.command('tokens').description('Your own access tokens, through the API.');

  withCommonOptions(withPaging(tokens.command('list')).description('List your tokens, oldest first (never a secret).'))
    .addHelpText('after', '\nExample:\n  schedule people tokens list')
    .action((_, command: Command) => runCommand(command, (ctx) => listCommand(ctx, 'list_tokens', {}, TOKEN_COLUMNS)));

  withCommonOptions(tokens.command('get <id>').description('Show one of your tokens.'))
    .addHelpText('after', '\nExample:\n  schedule people tokens get <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('get_token', { params: { token_id: id } });
        show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
      }),
    );

  withCommonOptions(
    tokens
      .command('create')
      .description('Make a token with scopes yours holds; its secret is printed this once.')
      .requiredOption('--name <name>', 'a name to know it by')
      .requiredOption('--scope <scopes>', 'scopes, comma-separated (e.g. bookings:read,slots:read)', list)
      .option('--expires-at <iso>', 'when it stops working, with its offset (e.g. 2027-01-31T17:00:00Z)')
      .option('--user <user>', "whose token (admins and owners: a new person's first)")
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule people tokens create --name laptop --scope bookings:read,slots:read')
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({ name: o.name, scopes: o.scope, expires_at: o.expiresAt, user_id: o.user });
        const { data } = await ctx.call('create_token', { body, idempotencyKey: ctx.key() });
        const token = data as Parameters<typeof tokenCreatedText>[0] & { secret: string | null };
        showPersonWrite(ctx, token, () => tokenCreatedText(token, token.secret ?? '(shown only in the first answer)'));
      }),
    );

  withCommonOptions(
    tokens
      .command('revoke <id>')
      .description('Revoke one of your tokens at once.')
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule people tokens revoke <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const { data } = await ctx.call('revoke_token', { params: { token_id: id }, idempotencyKey: ctx.key() });
        showPersonWrite(ctx, data, tokenRevokedText);
      }),
    );
}
