import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import type { CalendarAccountDeps } from './calendar-account-deps.js';
import type { CalendarAccountTest } from './calendar-account-view.js';
import { connectAccount, nameOf } from './connect-account.js';
import { findCalendarAccount } from './user-calendars.js';

/**
 * Reads an account now, as availability and calendar sync will: discovery
 * with its stored credentials, and the calendars it names. Answers every
 * event calendar found and which of them block time and take bookings; a
 * failure is the same typed refusal adding it would have given.
 */
export async function testCalendarAccount(
  db: Executor,
  deps: CalendarAccountDeps | undefined,
  principal: Principal,
  id: string,
): Promise<CalendarAccountTest> {
  const { calendar } = await findCalendarAccount(db, principal, id);
  const account = await connectAccount(deps, calendar);
  return {
    id,
    calendars: account.calendars.map((c) => ({
      name: nameOf(c),
      url: c.url,
      busy: account.busy.includes(c),
      book_into: account.bookInto === c,
    })),
  };
}
