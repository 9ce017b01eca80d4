import type { CalDavCalendar } from '../event-types/calendar.js';
import { urlShown } from '../url-shown.js';
import type { RemoteCalendar } from './caldav-connector.js';
import { CalDavFailure } from './caldav-failure.js';

// Apart from adapters/caldav-account.ts, which loads tsdav: checking a name needs no protocol.

/** A calendar named by its display name or by its URL (absolute or a path, trailing slash optional). */
export function findCalendar(calendars: readonly RemoteCalendar[], name: string): RemoteCalendar | undefined {
  const byName = calendars.find((c) => c.displayName === name);
  if (byName) return byName;
  const path = (url: string) => new URL(url, 'http://x').pathname.replace(/\/?$/, '/');
  return calendars.find((c) => path(c.url) === path(name) || c.url === name);
}

/**
 * The calendars an account's configuration picks among those the server
 * lists: `busy_calendars` (every one when absent) and `book_into` (the first
 * when absent, none when null). A name the account lacks is `no_calendar`.
 */
export function pickCalendars(
  calendars: readonly RemoteCalendar[],
  calendar: CalDavCalendar,
): { busy: readonly RemoteCalendar[]; bookInto: RemoteCalendar | null } {
  const named = (name: string, what: string) => {
    const match = findCalendar(calendars, name);
    if (match) return match;
    const known = calendars.map((c) => c.displayName || c.url).join(', ') || 'none';
    throw new CalDavFailure(
      'no_calendar',
      `CalDAV account ${calendar.username} at ${urlShown(calendar.url)} has no calendar "${name}" (${what}); it has: ${known}`,
    );
  };
  const busy = calendar.busy_calendars?.map((name) => named(name, 'busy_calendars')) ?? calendars;
  let bookInto: RemoteCalendar | null = null;
  if (calendar.book_into !== null)
    bookInto = calendar.book_into === undefined ? (calendars[0] ?? null) : named(calendar.book_into, 'book_into');
  return { busy, bookInto };
}
