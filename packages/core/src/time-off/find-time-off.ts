import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Executor } from '../storage/store.js';

/** The `404 time_off_not_found` of an id, whatever made it unknown. */
export function timeOffNotFound(id: string): ScheduleError {
  return new ScheduleError('time_off_not_found', 'No time off with this id for this user.', { id });
}

/**
 * A range of the user's time off. A malformed id, an unknown one and another
 * user's all answer `404 time_off_not_found`: the path names whose it is.
 */
export async function findTimeOff(db: Executor, userId: string, id: string) {
  // Stryker disable next-line ConditionalExpression: equivalent: range ids are generated UUIDs in a text column on both stores, so an id that is none matches no row and the same 404 follows; raw-call-bounds.ts refuses a param no store can hold (a NUL byte) before here.
  if (!isUuid(id)) throw timeOffNotFound(id);
  const row = await db
    .selectFrom('time_off')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw timeOffNotFound(id);
  return row;
}
