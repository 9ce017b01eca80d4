import type { RemoteCalendar } from './caldav-account.js';

// Apart from caldav-account.ts, which loads tsdav: checking a name needs no protocol.

/** A calendar named by its display name or by its URL (absolute or a path, trailing slash optional). */
export function findCalendar(calendars: readonly RemoteCalendar[], name: string): RemoteCalendar | undefined {
  const byName = calendars.find((c) => c.displayName === name);
  if (byName) return byName;
  const path = (url: string) => new URL(url, 'http://x').pathname.replace(/\/?$/, '/');
  return calendars.find((c) => path(c.url) === path(name) || c.url === name);
}
