import type { CalDavAccount, RemoteCalendar } from '../caldav/caldav-connector.js';
import { CalDavFailure } from '../caldav/caldav-failure.js';
import { findCalendar, pickCalendars } from '../caldav/calendar-names.js';
import type { ErrorCode } from '../errors.js';
import { ScheduleError } from '../errors.js';
import type { CalDavCalendar } from '../event-types/calendar.js';
import type { CalendarAccountDeps } from './calendar-account-deps.js';

/** How a calendar of the account is named in answers: its display name, or its URL when it has none. */
export const nameOf = (calendar: RemoteCalendar) => calendar.displayName || calendar.url;

/** The `503 calendar_key_missing` of a server without CALENDAR_KEY. */
export function calendarKeyMissing(): ScheduleError {
  return new ScheduleError(
    'calendar_key_missing',
    'This server has no calendar key (CALENDAR_KEY), so it cannot keep or open CalDAV passwords; its operator must set one.',
  );
}

/**
 * The account, discovered now, with the calendars it names checked against
 * the ones the server lists. Every failure is a typed refusal whose message
 * names the server without credentials and never holds the password.
 */
export async function connectAccount(deps: CalendarAccountDeps | undefined, calendar: CalDavCalendar): Promise<CalDavAccount> {
  if (deps === undefined) throw new ScheduleError('calendar_unreachable', 'This server is not set up to connect to CalDAV servers.');
  if (calendar.password_sealed !== undefined && deps.sealer === undefined) throw calendarKeyMissing();
  let account: CalDavAccount;
  try {
    // Discovered without the configuration's picks, so a name the account lacks is answered below with the list it has.
    account = await deps.connector.connect({ ...calendar, busy_calendars: undefined, book_into: null });
  } catch (error) {
    if (error instanceof CalDavFailure) throw refusalOf(error);
    throw error;
  }
  const check = (field: 'busy_calendars' | 'book_into', name: string) => {
    if (findCalendar(account.calendars, name)) return;
    const found = account.calendars.map(nameOf);
    throw new ScheduleError(
      'calendar_name_unknown',
      `The account has no calendar "${name}" (${field}); it has: ${found.join(', ') || 'none'}.`,
      { field, name, calendars: found },
    );
  };
  for (const name of calendar.busy_calendars ?? []) check('busy_calendars', name);
  if (typeof calendar.book_into === 'string') check('book_into', calendar.book_into);
  return { ...account, ...pickCalendars(account.calendars, calendar) };
}

/** The API's code for each way talking to the server failed. */
const CODE_OF: Record<CalDavFailure['reason'], ErrorCode> = {
  credentials: 'calendar_credentials_refused',
  not_caldav: 'calendar_not_caldav',
  no_password: 'calendar_password_unavailable',
  unreachable: 'calendar_unreachable',
  timeout: 'calendar_unreachable',
  too_large: 'calendar_unreachable',
  http: 'calendar_unreachable',
  // None of these happens while discovering; the connector's own name check is answered by connectAccount's, which lists the calendars.
  changed_elsewhere: 'calendar_unreachable',
  foreign_object: 'calendar_unreachable',
  too_many: 'calendar_unreachable',
  no_calendar: 'calendar_name_unknown',
};

/** A CalDAV failure as the API's refusal, in the failure's words (they name the server without credentials); the failure stays the cause, for the log. */
function refusalOf(failure: CalDavFailure): ScheduleError {
  const details = { reason: failure.reason, ...(failure.status === undefined ? {} : { status: failure.status }) };
  return new ScheduleError(CODE_OF[failure.reason], `${failure.message}.`, details, undefined, { cause: failure });
}
