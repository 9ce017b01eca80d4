import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import type { ListCalendarAccountsQuery } from './calendar-account-input.js';
import type { CalendarAccount } from './calendar-account-view.js';
import { toCalendarAccount } from './calendar-account-view.js';
import { isCalDav, namedUser, readUserCalendars } from './user-calendars.js';

/**
 * A user's CalDAV accounts, the workspace file's first, then the API's in
 * the order they were added (the first that receives bookings gets them).
 * A user the caller may not act for, or an unknown one, has none to show:
 * a list filter outside the caller's set gives an empty list, not an error.
 */
export async function listCalendarAccounts(
  db: Executor,
  principal: Principal,
  query: ListCalendarAccountsQuery,
): Promise<CalendarAccount[]> {
  const userId = await namedUser(db, principal, query.user);
  if (userId === undefined) return [];
  const { calendars } = await readUserCalendars(db, userId);
  return calendars.filter(isCalDav).map((c) => toCalendarAccount(userId, c));
}
