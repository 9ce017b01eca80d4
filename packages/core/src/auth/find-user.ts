import type { ExpressionBuilder } from 'kysely';
import { ScheduleError } from '../errors.js';
import type { Database } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';

// Operators name people by username or id (`--user alice`, `--user <uuid>`),
// and so does the API (`/v1/people/alice`); one lookup, so every command
// refuses an unknown one with the same words.

export interface UserName {
  readonly id: string;
  readonly username: string;
}

/** The where-clause of a user named by exact username or by id (in any case). */
export function namedUser(ref: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => eb.or([eb('username', '=', ref), eb('id', '=', ref.toLowerCase())]);
}

/**
 * The where-clause of the person an API path names (`/v1/people/:user_id`
 * and below): `me` for the caller, else a username or an id, as `namedUser`.
 */
export function pathUser(principal: { readonly account: { readonly id: string } }, ref: string) {
  return namedUser(ref === 'me' ? principal.account.id : ref);
}

/** The user a username or id names; `not_found` when none does. */
export async function findUser(db: Executor, user: string): Promise<UserName> {
  const row = await db.selectFrom('users').select(['id', 'username']).where(namedUser(user)).executeTakeFirst();
  if (!row) throw new ScheduleError('not_found', `No user "${user}".`, { user });
  return row;
}
