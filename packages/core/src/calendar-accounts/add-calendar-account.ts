import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { CalDavCalendar } from '../event-types/calendar.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { CalendarAccountDeps } from './calendar-account-deps.js';
import type { AddCalendarAccountBody } from './calendar-account-input.js';
import { type CalendarAccount, sourceOf, toCalendarAccount } from './calendar-account-view.js';
import { calendarKeyMissing, connectAccount } from './connect-account.js';
import { changeUserCalendars, isCalDav, namedUser, readUserCalendars, userNotAllowed } from './user-calendars.js';

/** Accounts one user may add through the API: each is discovered on every read of their busy times. */
export const MAX_API_ACCOUNTS = 10;

/** An account checked and ready to store: discovery succeeded with its credentials and names. */
export interface PreparedAccount {
  readonly userId: string;
  readonly calendar: CalDavCalendar;
}

/**
 * Checks an account before anything is stored: the caller may act for its
 * user, the server has a calendar key, and the server answers as CalDAV,
 * accepts the credentials and has the calendars named. The password is
 * sealed first and discovery opens it again, as every later read does.
 */
export async function prepareCalendarAccount(
  db: Executor,
  deps: { readonly clock: Clock; readonly ids: IdGenerator; readonly accounts: CalendarAccountDeps | undefined },
  principal: Principal,
  body: AddCalendarAccountBody,
): Promise<PreparedAccount> {
  const userId = await namedUser(db, principal, body.user);
  if (userId === undefined) throw userNotAllowed();
  const sealer = deps.accounts?.sealer;
  if (sealer === undefined) throw calendarKeyMissing();
  const { calendars } = await readUserCalendars(db, userId);
  if (calendars.filter(isCalDav).filter((c) => sourceOf(c) === 'api').length >= MAX_API_ACCOUNTS) throw tooMany();
  const calendar: CalDavCalendar = {
    kind: 'caldav',
    id: `cal_${deps.ids.uuid().replaceAll('-', '')}`,
    url: body.url,
    username: body.username,
    password_sealed: sealer.seal(body.password),
    ...(body.busy_calendars === undefined ? {} : { busy_calendars: body.busy_calendars }),
    ...(body.book_into === undefined ? {} : { book_into: body.book_into }),
    created_at: toTimestamp(deps.clock.now()),
  };
  await connectAccount(deps.accounts, calendar);
  return { userId, calendar };
}

/** Stores a prepared account after the user's other calendars. */
export async function storeCalendarAccount(trx: Executor, now: string, prepared: PreparedAccount): Promise<CalendarAccount> {
  await changeUserCalendars(trx, prepared.userId, now, (calendars) => {
    // Checked again in the transaction: another add may have landed since the first check.
    if (calendars.filter(isCalDav).filter((c) => sourceOf(c) === 'api').length >= MAX_API_ACCOUNTS) throw tooMany();
    return [...calendars, prepared.calendar];
  });
  return toCalendarAccount(prepared.userId, prepared.calendar);
}

function tooMany(): ScheduleError {
  return new ScheduleError(
    'validation_error',
    `A user has at most ${MAX_API_ACCOUNTS} calendar accounts added through the API; remove one first.`,
    { fields: [] },
  );
}
