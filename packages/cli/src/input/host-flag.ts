import { CliError } from '../backend/backend.js';
import type { RunContext } from '../command-context.js';
import type { PersonItem } from '../interactive/api-items.js';
import { listAll } from '../interactive/list-all.js';

// `--host` (who hosts the meetings) and `--owner` (whose event type) take a
// username or a user id, as `tokens create --user` takes a person. The API
// takes ids (host_user_id) or usernames (an event type's owner), so a name
// or an id is looked up among the people the token may act for
// (`list_people`): the only people whose calendars and event types it may use.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a flag's value is a user id rather than a username. */
export function isUserId(text: string): boolean {
  return UUID.test(text);
}

/** The person `flag` names (`--host alice`, `--owner <id>`) among those the token may act for; else not_found naming the flag. */
export async function personNamed(ctx: RunContext, flag: string, text: string): Promise<PersonItem> {
  const people = await listAll<PersonItem>(ctx, 'list_people');
  const person = isUserId(text)
    ? people.find((p) => p.user_id === text.toLowerCase())
    : (people.find((p) => p.username === text) ?? people.find((p) => p.username.toLowerCase() === text.toLowerCase()));
  if (!person) throw new CliError('not_found', `${flag} ${text}: no one this token may act for has that username or id.`);
  return person;
}

/** The user id `--host` names: an id as given (the API judges it), a username looked up. */
export async function hostIdOf(ctx: RunContext, text: string | undefined): Promise<string | undefined> {
  if (text === undefined || isUserId(text)) return text;
  return (await personNamed(ctx, '--host', text)).user_id;
}
