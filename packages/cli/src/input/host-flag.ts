import { CliError } from '../backend/backend.js';
import type { RunContext } from '../command-context.js';
import type { PersonItem } from '../interactive/api-items.js';
import { listAll } from '../interactive/list-all.js';

// `--host` takes a username or a user id, as `--username` and `tokens create
// --user` take a person. The API takes ids (host_user_id) or usernames
// (slots and bookings name the event type's owner), so a name is looked up
// among the people the token may act for (`list_people`): the only people
// whose calendars it may choose.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function personOf(ctx: RunContext, text: string): Promise<PersonItem> {
  const people = await listAll<PersonItem>(ctx, 'list_people');
  const person = UUID.test(text)
    ? people.find((p) => p.user_id === text.toLowerCase())
    : (people.find((p) => p.username === text) ?? people.find((p) => p.username.toLowerCase() === text.toLowerCase()));
  if (!person) throw new CliError('not_found', `--host ${text}: no one this token may act for has that username or id.`);
  return person;
}

/** The user id `--host` names: an id as given (the API judges it), a username looked up. */
export async function hostIdOf(ctx: RunContext, text: string | undefined): Promise<string | undefined> {
  if (text === undefined || UUID.test(text)) return text;
  return (await personOf(ctx, text)).user_id;
}

/**
 * The event type's owner as a username, from `--host` (a username or an id)
 * or `--username`; giving both is a usage error, since they name one person.
 */
export async function ownerNameOf(ctx: RunContext): Promise<string | undefined> {
  const { host, username } = ctx.options as { host?: string; username?: string };
  if (host === undefined) return username;
  if (username !== undefined) throw new CliError('usage', '--host and --username both name the owner; give one of them.');
  return UUID.test(host) ? (await personOf(ctx, host)).username : host;
}
