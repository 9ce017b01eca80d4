import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';

// Operators name people by username or id (`--user alice`, `--user <uuid>`);
// one lookup, so every command refuses an unknown one with the same words.

export interface UserName {
  readonly id: string;
  readonly username: string;
}

/** The user a username or id names; `not_found` when none does. */
export async function findUser(db: Executor, user: string): Promise<UserName> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) => eb.or([eb('username', '=', user), eb('id', '=', user.toLowerCase())]))
    .executeTakeFirst();
  if (!row) throw new ScheduleError('not_found', `No user "${user}".`, { user });
  return row;
}
