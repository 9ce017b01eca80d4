import type { Calendar } from '../event-types/calendar.js';
import type { Interval } from './busy.js';

/**
 * A conflict calendar could not be read. Availability is then unknown, and
 * every operation that needs it answers `503 availability_unavailable`.
 */
export class CalendarUnreadable extends Error {
  override readonly name = 'CalendarUnreadable';
}

/** A feed's URL as it may be shown (messages, logs, the CLI): without the credentials it may carry. */
export function feedUrlShown(url: string): string {
  if (!URL.canParse(url)) return '(not a URL)';
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

/**
 * Reads the busy times of one iCalendar feed that overlap a range; dates and
 * floating times are read in `hostZone` (UTC when not given). Throws CalendarUnreadable.
 */
export type IcsFeedReader = (url: string, range: Interval, hostZone?: string) => Promise<Interval[]>;

/** Reads a host's conflict calendars. Passed in, so tests and embedders choose how feeds are fetched. */
export interface CalendarReader {
  /** Busy times of every calendar that overlap `range`, feeds read in the host's zone. Throws CalendarUnreadable if any cannot be read. */
  busy(calendars: readonly Calendar[], range: Interval, hostZone: string): Promise<Interval[]>;
}

/** Reads `static` calendars inline and `ics` calendars through the given feed reader. */
export function createCalendarReader(readIcs: IcsFeedReader): CalendarReader {
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
          }
        }),
      );
      return all.flat();
    },
  };
}
