import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';
import { accountIdOf, type CalendarAccount, sourceOf, toCalendarAccount } from './calendar-account-view.js';
import { changeUserCalendars, findCalendarAccount, isCalDav } from './user-calendars.js';

/**
 * Removes an account added through the API and answers it as it was. The
 * workspace file's own accounts are refused (`409 calendar_from_workspace`):
 * the next load of the file would bring them back, so they are removed from
 * the file. Events already written to the account stay there.
 */
export async function removeCalendarAccount(trx: Executor, now: string, principal: Principal, id: string): Promise<CalendarAccount> {
  const { userId, calendar } = await findCalendarAccount(trx, principal, id);
  if (sourceOf(calendar) === 'workspace') {
    throw new ScheduleError(
      'calendar_from_workspace',
      'This account comes from the workspace file, which would bring it back on its next load; remove it from the file instead.',
      { id },
    );
  }
  await changeUserCalendars(trx, userId, now, (calendars) => calendars.filter((c) => !(isCalDav(c) && accountIdOf(userId, c) === id)));
  return toCalendarAccount(userId, calendar);
}
