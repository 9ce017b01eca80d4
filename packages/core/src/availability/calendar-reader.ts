import type { CalDavCalendar, Calendar } from '../event-types/calendar.js';
import { urlShown } from '../url-shown.js';
import type { Interval } from './busy.js';

/**
 * A conflict calendar could not be read. Availability is then unknown, and
 * every operation that needs it answers `503 availability_unavailable`.
 */
export class CalendarUnreadable extends Error {
  override readonly name = 'CalendarUnreadable';
}

/** A feed's URL as it may be shown: without the credentials it may carry. */
export const feedUrlShown = urlShown;

/**
 * Reads the busy times of one iCalendar feed that overlap a range; dates and
 * floating times are read in `hostZone` (UTC when not given). Throws CalendarUnreadable.
 */
export type IcsFeedReader = (url: string, range: Interval, hostZone?: string) => Promise<Interval[]>;

/**
 * Reads the busy times of a CalDAV account's busy calendars that overlap a
 * range; dates and floating times in `hostZone`. Throws CalendarUnreadable.
 */
export type CalDavBusyReader = (calendar: CalDavCalendar, range: Interval, hostZone: string) => Promise<Interval[]>;

/** Reads a host's conflict calendars. Passed in, so tests and embedders choose how feeds are fetched. */
export interface CalendarReader {
  /** Busy times of every calendar that overlap `range`, feeds read in the host's zone. Throws CalendarUnreadable if any cannot be read. */
  busy(calendars: readonly Calendar[], range: Interval, hostZone: string): Promise<Interval[]>;
}

/**
 * Reads `static` calendars inline, `ics` calendars through the feed reader
 * and `caldav` accounts through the CalDAV reader; without one, a host with a
 * CalDAV account has unknown availability.
 */
export function createCalendarReader(readIcs: IcsFeedReader, readCalDav?: CalDavBusyReader): CalendarReader {
  return {
    async busy(calendars, range, hostZone) {
      const all = await Promise.all(
        calendars.map(async (calendar): Promise<Interval[]> => {
          switch (calendar.kind) {
            case 'static':
              // The workspace loader stored these as canonical ISO instants.
              return calendar.busy
                .map((b) => ({ startMs: Date.parse(b.start), endMs: Date.parse(b.end) }))
                .filter((b) => b.startMs < range.endMs && range.startMs < b.endMs);
            case 'ics':
              return readIcs(calendar.url, range, hostZone);
            case 'caldav':
              if (readCalDav === undefined)
                throw new CalendarUnreadable(`CalDAV account ${calendar.username} cannot be read: this process reads no CalDAV calendars`);
              return readCalDav(calendar, range, hostZone);
          }
        }),
      );
      return all.flat();
    },
  };
}
