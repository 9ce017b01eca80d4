import type { CalDavConnector, RemoteCalendar } from '../../caldav/caldav-connector.js';
import { CalDavFailure } from '../../caldav/caldav-failure.js';
import type { Clock } from '../../clock.js';
import { MissingDriver } from '../../optional-driver.js';
import { DAY_MS } from '../../time.js';
import { urlShown } from '../../url-shown.js';
import type { Interval } from '../busy.js';
import { type CalDavBusyReader, CalendarUnreadable } from '../calendar-reader.js';
import { BUSY_WINDOW_AHEAD_DAYS, busyWindow, holds, MAX_BUSY_WINDOWS } from './busy-window.js';
import { busyWithin } from './ics/busy-within.js';
import { type ParsedFeed, parseFeed, type Series } from './ics/parse-feed.js';
import { reportSkipped, type SkippedEvent } from './ics/skipped-event.js';

export interface CalDavBusyOptions {
  readonly clock: Clock;
  /** Discovers accounts; shared with the calendar syncer, so one discovery serves reading and writing. */
  readonly connector: CalDavConnector;
  /** How long a calendar's events, once read, are reused. 0 reads the server on every call. */
  readonly cacheTtlMs?: number | undefined;
  /** How far past now one read reaches, so the slot lists and checks that follow are served from it. */
  readonly aheadDays?: number | undefined;
  /** Objects one calendar may return for one read; more makes it unreadable rather than slow. */
  readonly maxObjects?: number | undefined;
  /** Told after each read of a calendar which of its events were left out as unreadable (named by UID only). */
  readonly onSkippedEvents?: ((calendar: string, skipped: readonly SkippedEvent[]) => void) | undefined;
}

export const CALDAV_BUSY_CACHE_TTL_MS = 60_000;
/** A read asks for the events of the standard window (busy-window.ts), so the calls within it share one request per calendar per cache lifetime. */
export const CALDAV_BUSY_AHEAD_DAYS = BUSY_WINDOW_AHEAD_DAYS;
export const CALDAV_BUSY_MAX_OBJECTS = 5000;
/** A range longer than this (a series far ahead) is refused, not cut short: busy time past a cut would read as free. */
export const CALDAV_BUSY_MAX_RANGE_DAYS = 2 * 366;

/** One read of one calendar over `window`, and the busy times worked out from it per host zone. */
interface Read {
  readonly window: Interval;
  readonly events: Promise<readonly Series[]>;
  expiresAtMs: number;
  readonly byZone: Map<string, Interval[]>;
}

/**
 * Reads the busy times of CalDAV accounts: a calendar-query REPORT per busy
 * calendar over a window around now, read with the same iCalendar code as
 * feeds (recurrences, overrides, EXDATE, TRANSP and STATUS, zones), kept
 * briefly. Concurrent reads share one request. Any failure makes the account
 * unreadable, named without its password.
 */
export function calDavBusyReader(options: CalDavBusyOptions): CalDavBusyReader {
  const { clock, connector } = options;
  const ttlMs = options.cacheTtlMs ?? CALDAV_BUSY_CACHE_TTL_MS;
  const aheadMs = (options.aheadDays ?? CALDAV_BUSY_AHEAD_DAYS) * DAY_MS;
  const maxObjects = options.maxObjects ?? CALDAV_BUSY_MAX_OBJECTS;
  // Keyed by user and calendar URL; the set comes from the hosts' configuration, so it stays small.
  const reads = new Map<string, Read[]>();

  function readOf(username: string, remote: RemoteCalendar, load: (window: Interval) => Promise<readonly Series[]>, range: Interval): Read {
    const key = `${username}\n${remote.url}`;
    const nowMs = clock.now();
    const live = (reads.get(key) ?? []).filter((r) => nowMs < r.expiresAtMs);
    const found = live.find((r) => holds(r.window, range));
    if (found) return found;
    const window = busyWindow(range, nowMs, aheadMs);
    // While in flight a read never expires, so concurrent callers share it.
    const read: Read = { window, events: load(window), expiresAtMs: Number.POSITIVE_INFINITY, byZone: new Map() };
    reads.set(key, [read, ...live].slice(0, MAX_BUSY_WINDOWS));
    read.events.then(
      () => {
        read.expiresAtMs = clock.now() + ttlMs;
      },
      () => {
        // A failure is not remembered: the next call asks again.
        const kept = reads.get(key)?.filter((r) => r !== read);
        if (kept) reads.set(key, kept);
      },
    );
    return read;
  }

  return async (calendar, range, hostZone) => {
    const account = `CalDAV account ${calendar.username} at ${urlShown(calendar.url)}`;
    if (range.endMs - range.startMs > CALDAV_BUSY_MAX_RANGE_DAYS * DAY_MS)
      throw new CalendarUnreadable(`${account} is not read over more than ${CALDAV_BUSY_MAX_RANGE_DAYS} days at once`);
    try {
      const connected = await connector.connect(calendar);
      const busy = await Promise.all(
        connected.busy.map(async (remote) => {
          const shown = `${calendar.username} ${urlShown(remote.url)}`;
          const load = async (window: Interval) => {
            // A day more on each side: a server matches dates and floating times in a zone of its own (RFC 4791 §9.9), not the host's.
            const objects = await connected.eventsWithin(remote, window.startMs - DAY_MS, window.endMs + DAY_MS, maxObjects);
            return seriesOf(objects, shown);
          };
          const read = readOf(calendar.username, remote, load, range);
          return within(read, await read.events, range, hostZone, (event) => report(shown, [event]));
        }),
      );
      return busy.flat();
    } catch (error) {
      // A driver not installed is the operator's to fix, as for a feed: said as it is, not as an unreadable calendar.
      if (error instanceof CalendarUnreadable || error instanceof MissingDriver) throw error;
      const reason = error instanceof CalDavFailure ? error.message : error instanceof Error ? error.message : String(error);
      throw new CalendarUnreadable(`${account} is unreadable: ${reason}`, { cause: error });
    }
  };

  /** Each object parsed on its own, so one that is not iCalendar at all is skipped, not the calendar. */
  function seriesOf(objects: readonly { href: string; text: string }[], shown: string): Series[] {
    const parsed: ParsedFeed[] = objects.map(({ href, text }) => {
      try {
        return parseFeed(text);
      } catch {
        return { series: [], events: 0, skipped: [{ uid: href.split('/').pop() ?? href, reason: 'unparseable' }] };
      }
    });
    report(
      shown,
      parsed.flatMap((p) => p.skipped),
    );
    return parsed.flatMap((p) => p.series);
  }

  function report(shown: string, skipped: readonly SkippedEvent[]) {
    reportSkipped(options.onSkippedEvents, shown, skipped);
  }
}

/**
 * The busy times of a read that overlap `range`. The read's whole window is
 * expanded once per host zone and kept, so the calls the cache serves only
 * filter a sorted list; the set is the one busyWithin gives for `range`
 * itself, since it keeps unclipped every interval that overlaps.
 */
function within(
  read: Read,
  series: readonly Series[],
  range: Interval,
  hostZone: string,
  onSkipped: (skipped: SkippedEvent) => void,
): Interval[] {
  let all = read.byZone.get(hostZone);
  if (all === undefined) {
    // Past the expansion bounds the busy time is unknown, not free; an event ical.js gives up on is left out and told.
    all = busyWithin(series, read.window, hostZone, onSkipped);
    read.byZone.set(hostZone, all);
  }
  return all.filter((b) => b.startMs < range.endMs && range.startMs < b.endMs);
}
