import { pathUser } from '../auth/find-user.js';
import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';
import type { PersonRow } from './person-view.js';

/** The `404 person_not_found` of a reference, whatever made it unknown. */
export function personNotFound(ref: string): ScheduleError {
  return new ScheduleError('person_not_found', `No person "${ref}".`, { user_id: ref });
}

/**
 * The person a path names, by user id, by username, or `me` for the caller,
 * when the caller may see them: whoever `GET /v1/people` lists for it (its
 * acts-for set). Anyone else answers exactly like an unknown person, so
 * existence outside the set never leaks.
 */
export async function findVisiblePerson(db: Executor, principal: Principal, ref: string): Promise<PersonRow> {
  const row = await db.selectFrom('users').selectAll().where(pathUser(principal, ref)).executeTakeFirst();
  if (!row || !mayActFor(principal.actsFor, row.id)) throw personNotFound(ref);
  return row;
}
