import type { DAVCalendar } from 'tsdav';
import type { Clock } from '../clock.js';
import type { CalDavCalendar } from '../event-types/calendar.js';

// What the rest of core knows of CalDAV: these types, and the connector that
// caldav-lazy.ts loads from adapters/ on the first connection.

/** The `fetch` that tsdav is handed: the standard signature, so any implementation fits. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** One calendar of an account, as its server lists it. */
export interface RemoteCalendar {
  readonly url: string;
  readonly displayName: string;
  /** What tsdav needs to address the calendar again. */
  readonly dav: DAVCalendar;
}

/** An account after discovery: its event calendars, and the ones the configuration picks. */
export interface CalDavAccount {
  /** Every calendar of the account that holds events. */
  readonly calendars: readonly RemoteCalendar[];
  /** The calendars whose events block time. */
  readonly busy: readonly RemoteCalendar[];
  /** The calendar new bookings are written to; null when the account is read only. */
  readonly bookInto: RemoteCalendar | null;
  /** The account's bounded, authenticated fetch, for the calls that follow. */
  readonly fetch: Fetch;
  /**
   * Writes `text` as the object `filename` of `calendar` only if there is none
   * (`{ absent: true }`), or as the object at `href` only if it is unchanged
   * since `etag`. Fails `changed_elsewhere` (HTTP 412) otherwise.
   */
  put(
    target:
      | { readonly calendar: RemoteCalendar; readonly filename: string; readonly absent: true }
      | { readonly href: string; readonly etag: string },
    text: string,
  ): Promise<StoredObject>;
  /** Removes the object at `href` if it is unchanged since `etag` (`changed_elsewhere` otherwise); one already gone counts as removed. */
  remove(href: string, etag: string): Promise<void>;
  /** The object at `href` as it is now, or null when there is none. */
  get(href: string): Promise<(StoredObject & { readonly text: string }) | null>;
  /**
   * The objects of `calendar` holding an event with a time in `[startMs, endMs)`,
   * the server expanding recurrences to decide (RFC 4791 §7.8.1
   * calendar-query with a time-range), each as its iCalendar text, in one
   * request. Fails `too_many` when there are more than `maxObjects`.
   */
  eventsWithin(calendar: RemoteCalendar, startMs: number, endMs: number, maxObjects: number): Promise<CalendarObjectText[]>;
}

/** A calendar object's address and iCalendar text, as a calendar-query answered it. */
export interface CalendarObjectText {
  readonly href: string;
  readonly text: string;
}

/** A calendar object as the server keeps it. */
export interface StoredObject {
  readonly href: string;
  /** Null when the server gave none (it may have changed what was written). */
  readonly etag: string | null;
}

export interface CalDavDeps {
  readonly clock: Clock;
  /** The account's password. Throws CalDavFailure `no_password` when there is none to be had. */
  readonly passwordOf: (calendar: CalDavCalendar) => string;
  /** The transport; undici's fetch unless given. */
  readonly fetch?: Fetch | undefined;
  /** Budget of one request. */
  readonly timeoutMs?: number | undefined;
  /** Largest answer read. */
  readonly maxBytes?: number | undefined;
  /** How long a discovered account is reused. */
  readonly discoveryTtlMs?: number | undefined;
}

export interface CalDavConnector {
  /** The account, discovered from its URL (principal, calendar home, calendars) or reused from a recent discovery. */
  connect(calendar: CalDavCalendar): Promise<CalDavAccount>;
}
