import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import type { CalDavCalendar, Calendar } from '../event-types/calendar.js';
import { isUuid } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { accountIdOf } from './calendar-account-view.js';

// A user's calendars live in `users.calendars_json`, the workspace file's and
// the API's together, so availability and calendar sync read one list.

/** A user's stored calendars, with the text they were read from (a write checks it is unchanged). */
export interface UserCalendars {
  readonly userId: string;
  readonly text: string;
  readonly calendars: readonly Calendar[];
}

export const isCalDav = (c: Calendar): c is CalDavCalendar => c.kind === 'caldav';

/** The `404 calendar_not_found` of an id, whatever made it unknown. */
export function calendarNotFound(id: string): ScheduleError {
  return new ScheduleError('calendar_not_found', 'No calendar account with this id.', { id });
}

/**
 * The user a call names (`user`: an id or a username), else the caller. One
 * the caller may not act for answers like an unknown one (`403
 * host_not_allowed`), so nothing tells who exists.
 */
export async function namedUser(db: Executor, principal: Principal, user: string | undefined): Promise<string | undefined> {
  if (user === undefined) return principal.account.id;
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(isUuid(user) ? 'id' : 'username', '=', isUuid(user) ? user.toLowerCase() : user)
    .executeTakeFirst();
  return row && mayActFor(principal.actsFor, row.id) ? row.id : undefined;
}

export function userNotAllowed(): ScheduleError {
  return new ScheduleError('host_not_allowed', 'user is not someone this caller may act for.', { fields: ['user'] });
}

export async function readUserCalendars(db: Executor, userId: string): Promise<UserCalendars> {
  const row = await db.selectFrom('users').select('calendars_json').where('id', '=', userId).executeTakeFirstOrThrow();
  return { userId, text: row.calendars_json, calendars: JSON.parse(row.calendars_json) as Calendar[] };
}

/**
 * The CalDAV account with this id among the users the caller acts for. An
 * account of anyone else answers like an unknown id. Only users with a
 * CalDAV account are read; an organization has few.
 */
export async function findCalendarAccount(
  db: Executor,
  principal: Principal,
  id: string,
): Promise<{ userId: string; calendar: CalDavCalendar }> {
  if (!/^cal_[A-Za-z0-9_-]{8,64}$/.test(id)) throw calendarNotFound(id);
  let query = db.selectFrom('users').select(['id', 'calendars_json']).where('calendars_json', 'like', '%"caldav"%');
  if (principal.actsFor.kind === 'users') query = query.where('id', 'in', [...principal.actsFor.ids]);
  for (const row of await query.execute()) {
    const calendar = (JSON.parse(row.calendars_json) as Calendar[]).filter(isCalDav).find((c) => accountIdOf(row.id, c) === id);
    if (calendar) return { userId: row.id, calendar };
  }
  throw calendarNotFound(id);
}

/**
 * Replaces a user's calendars, if they are still what was read. A writer
 * that lost a race (PostgreSQL: another transaction changed the row
 * meanwhile) reads again and reapplies `change`; SQLite holds the whole
 * database for one writer, so it never loses.
 */
export async function changeUserCalendars(
  trx: Executor,
  userId: string,
  now: string,
  change: (calendars: readonly Calendar[]) => Calendar[],
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await readUserCalendars(trx, userId);
    const result = await trx
      .updateTable('users')
      .set({ calendars_json: JSON.stringify(change(current.calendars)), updated_at: now })
      .where('id', '=', userId)
      .where('calendars_json', '=', current.text)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return;
  }
  throw new ScheduleError('slot_lock_timeout', 'The user’s calendars kept changing meanwhile; nothing was written. Retry shortly.', {}, 1);
}
