import ICAL from 'ical.js';
import { Agent, interceptors, request } from 'undici';
import type { Clock } from '../../clock.js';
import { isTimeZone } from '../../time.js';
import { wallClockToInstant } from '../../wall-clock.js';
import { type Interval, overlaps } from '../busy.js';
import { CalendarUnreadable, type IcsFeedReader } from '../calendar-reader.js';

export interface IcsFeedOptions {
  readonly clock: Clock;
  /** Budget for the whole read: connecting, headers and body. */
  readonly timeoutMs?: number;
  /** How long a parsed feed is reused, so one availability request fetches each feed once. */
  readonly cacheTtlMs?: number;
  /** Feeds larger than this are refused rather than buffered. */
  readonly maxBytes?: number;
}

/** One recurring (or single) event and the overrides (RECURRENCE-ID) that replace some of its occurrences. */
interface Series {
  readonly event: ICAL.Event;
  readonly overrides: readonly ICAL.Event[];
  /**
   * `RDATE;VALUE=PERIOD` instances (RFC 5545 3.8.5.2: each with its own
   * start and end). ical.js cannot expand them, so they are taken out of the
   * event and read here.
   */
  readonly periods: readonly ICAL.Period[];
}

/** The TZID a time was written with, kept by ical.js outside its typings when the feed does not define the zone. */
function tzidOf(time: ICAL.Time): string | undefined {
  return (time as ICAL.Time & { timezone?: string }).timezone;
}

/** Takes a master's `RDATE;VALUE=PERIOD` properties out of it, and answers their periods. */
function takePeriods(vevent: ICAL.Component): ICAL.Period[] {
  const periods: ICAL.Period[] = [];
  for (const property of vevent.getAllProperties('rdate')) {
    if (property.type !== 'period') continue;
    periods.push(...(property.getValues() as ICAL.Period[]));
    vevent.removeProperty(property);
  }
  return periods;
}

/** Occurrences one series may produce before the range ends; a FREQ=SECONDLY rule from 1970 must not hang a request. */
const MAX_OCCURRENCES = 10_000;
const MAX_REDIRECTS = 5;

/** Reads busy times from iCalendar feeds over HTTP(S), caching each parsed feed for a while. */
export function icsFeedReader(options: IcsFeedOptions): IcsFeedReader {
  const { clock, timeoutMs = 3000, cacheTtlMs = 60_000, maxBytes = 5 * 1024 * 1024 } = options;
  // An agent of this undici, not the global dispatcher: that one may be Node's
  // own (built-in fetch installs it), of another undici version whose handlers
  // do not fit these interceptors.
  const dispatcher = new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  // Keyed by the configured URL; the set of URLs comes from the workspace, so it stays small.
  const cache = new Map<string, { feed: Promise<Series[]>; expiresAtMs: number }>();

  function load(url: string): Promise<Series[]> {
    const cached = cache.get(url);
    if (cached && clock.now() < cached.expiresAtMs) return cached.feed;
    // While in flight the entry never expires, so concurrent readers share the one fetch.
    const entry = { feed: fetchFeed(url), expiresAtMs: Number.POSITIVE_INFINITY };
    cache.set(url, entry);
    entry.feed.then(
      () => {
        entry.expiresAtMs = clock.now() + cacheTtlMs;
      },
      () => {
        // A failure is not remembered: the next read tries again.
        if (cache.get(url) === entry) cache.delete(url);
      },
    );
    return entry.feed;
  }

  async function fetchFeed(url: string): Promise<Series[]> {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      throw new CalendarUnreadable('calendar URL is not a valid URL', { cause: error });
    }
    const shown = withoutCredentials(target);
    const fail = (reason: string, cause?: unknown) => new CalendarUnreadable(`calendar ${shown} is unreadable: ${reason}`, { cause });
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw fail(`unsupported protocol ${target.protocol}`);

    const headers: Record<string, string> = { accept: 'text/calendar' };
    // Feeds like https://user:secret@host/cal.ics carry Basic credentials; send them as a header (undici
    // drops it on a cross-origin redirect) and keep them out of every message.
    if (target.username || target.password) {
      const pair = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }

    const signal = AbortSignal.timeout(timeoutMs);
    let text: string;
    try {
      const { statusCode, headers: responseHeaders, body } = await request(shown, { dispatcher, headers, signal });
      // undici reports an unread body destroyed as an 'error' event; nobody reads these, so mute it.
      const discard = () => body.on('error', () => {}).destroy();
      if (statusCode < 200 || statusCode > 299) {
        discard();
        throw fail(`HTTP ${statusCode}`);
      }
      const tooLarge = () => fail(`body is larger than ${maxBytes} bytes`);
      if (Number(responseHeaders['content-length']) > maxBytes) {
        discard();
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      // Counted while streaming, since a chunked body announces no length.
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw tooLarge(); // leaving the loop destroys the body
        chunks.push(chunk);
      }
      // RFC 5545 §6: the default charset is UTF-8; TextDecoder also drops a leading BOM.
      text = new TextDecoder().decode(Buffer.concat(chunks));
    } catch (error) {
      if (error instanceof CalendarUnreadable) throw error;
      if (signal.aborted) throw fail(`no complete answer within ${timeoutMs} ms`, error);
      throw fail(error instanceof Error ? error.message : String(error), error);
    }
    try {
      return parseFeed(text);
    } catch (error) {
      throw fail(`not a valid iCalendar feed (${error instanceof Error ? error.message : String(error)})`, error);
    }
  }

  return async (url, range, hostZone = 'UTC') => {
    const feed = await load(url);
    try {
      return busyWithin(feed, range, hostZone);
    } catch (error) {
      // ical.js gives up on rules it cannot satisfy; availability is then unknown, not free.
      const reason = error instanceof Error ? error.message : String(error);
      throw new CalendarUnreadable(`calendar ${safeDescription(url)} is unreadable: ${reason}`, { cause: error });
    }
  };
}

function withoutCredentials(url: URL): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

function safeDescription(url: string): string {
  return URL.canParse(url) ? withoutCredentials(new URL(url)) : 'with an invalid URL';
}

/**
 * Groups a feed's VEVENTs into series. Overrides are related by UID explicitly: left alone, ical.js relates
 * every RECURRENCE-ID in the calendar to every series, and another series' override would replace an occurrence.
 */
function parseFeed(text: string): Series[] {
  const parsed: unknown = ICAL.parse(text);
  // One VCALENDAR parses to a component, several to a list of them.
  const jcals = Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed];
  const roots = jcals.map((jcal) => new ICAL.Component(jcal as unknown[]));
  if (roots.length === 0 || roots.some((root) => root.name !== 'vcalendar')) throw new Error('no VCALENDAR');

  // Each root is a VCALENDAR with no parent, so ical.js resolves a TZID against that calendar's own
  // VTIMEZONEs (Component#getTimeZoneByID): the feed's definitions are used without registering them in
  // the process-wide TimezoneService, where feeds would overwrite each other's zones. A TZID the feed does
  // not define, and a floating time (no TZID, no Z), are read in the host's zone (see epochMs).
  const byUid = new Map<string, { masters: ICAL.Component[]; overrides: ICAL.Component[] }>();
  roots.forEach((root, r) => {
    root.getAllSubcomponents('vevent').forEach((vevent, v) => {
      const uid = String(vevent.getFirstPropertyValue('uid') ?? `no-uid-${r}-${v}`);
      const group = byUid.get(uid) ?? { masters: [], overrides: [] };
      byUid.set(uid, group);
      (vevent.hasProperty('recurrence-id') ? group.overrides : group.masters).push(vevent);
    });
  });

  const series: Series[] = [];
  for (const { masters, overrides } of byUid.values()) {
    const asEvents = overrides.map((o) => new ICAL.Event(o, { exceptions: [] }));
    // An override whose series is missing from the feed is still a busy time of its own.
    if (masters.length === 0) for (const o of asEvents) series.push({ event: o, overrides: [], periods: [] });
    for (const master of masters) {
      const periods = takePeriods(master);
      series.push({ event: new ICAL.Event(master, { exceptions: asEvents }), overrides: asEvents, periods });
    }
  }
  // Values decode lazily; decode them now so a malformed feed fails here, before it is cached.
  for (const { event } of series) {
    if (!event.startDate) throw new Error(`event ${event.uid} has no DTSTART`);
    void event.endDate;
    for (const name of ['rrule', 'rdate', 'exdate']) for (const p of event.component.getAllProperties(name)) p.getValues();
  }
  return series;
}

function busyWithin(feed: readonly Series[], range: Interval, hostZone: string): Interval[] {
  const busy: Interval[] = [];
  const push = (interval: Interval) => {
    // A DATE-TIME start without DTEND or DURATION lasts zero time (§3.6.1) and blocks nothing.
    if (interval.endMs > interval.startMs && overlaps(interval, range)) busy.push(interval);
  };
  // `tzid`: the zone the event's DTSTART names, for expanded instances, which ical.js gives without it.
  const add = (event: ICAL.Event, start: ICAL.Time, tzid?: string) => {
    if (!isBusy(event)) return;
    const startMs = epochMs(start, hostZone, tzid);
    if (start.isDate) {
      // An all-day instance blocks its whole local days, 23 or 25 hours across a DST change.
      const end = start.clone();
      end.addDuration(event.duration);
      push({ startMs, endMs: epochMs(end, hostZone, tzid) });
      return;
    }
    // RFC 5545 §3.8.5.3: every instance lasts the exact duration of the event that defines it.
    push({ startMs, endMs: startMs + epochMs(event.endDate, hostZone) - epochMs(event.startDate, hostZone) });
  };

  for (const { event, overrides, periods } of feed) {
    for (const override of overrides) add(override, override.startDate);
    const tzid = tzidOf(event.startDate);
    if (isBusy(event)) {
      for (const period of periods)
        push({ startMs: epochMs(period.start, hostZone, tzid), endMs: epochMs(period.getEnd(), hostZone, tzid) });
    }
    if (!event.isRecurring()) {
      add(event, event.startDate);
      continue;
    }
    // EXDATEs compared as instants: ical.js compares the wall clocks it has, and it has none for a TZID the feed does not define.
    const excluded = new Set(
      event.component
        .getAllProperties('exdate')
        .flatMap((p) => p.getValues() as ICAL.Time[])
        .map((t) => epochMs(t, hostZone, tzid)),
    );
    const occurrences = event.iterator();
    let count = 0;
    for (let next: ICAL.Time | undefined = occurrences.next(); next; next = occurrences.next()) {
      const nextMs = epochMs(next, hostZone, tzid);
      // Occurrences come in start order, so nothing later can overlap the range.
      if (nextMs >= range.endMs) break;
      if (++count > MAX_OCCURRENCES) throw new Error(`event ${event.uid} recurs more than ${MAX_OCCURRENCES} times before the range ends`);
      if (excluded.has(nextMs)) continue;
      const details = event.getOccurrenceDetails(next);
      // An override replaces its occurrence and was counted above at its own time.
      if (details.item !== event && details.item.recurrenceId.compare(next) === 0) continue;
      add(details.item, details.startDate, details.item === event ? tzid : undefined);
    }
  }
  return busy.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** TRANSP:TRANSPARENT (shown as free) and STATUS:CANCELLED events block no time. */
function isBusy(event: ICAL.Event): boolean {
  const value = (name: string) => String(event.component.getFirstPropertyValue(name) ?? '').toUpperCase();
  return value('transp') !== 'TRANSPARENT' && value('status') !== 'CANCELLED';
}

/**
 * The instant a time names: in the feed's own zone, in UTC, or (dates, floating times) in the host's zone.
 * RFC 5545 §3.3.5: a local time skipped by a DST change takes the offset from before the change, and one
 * that happens twice means its first instant. ical.js takes the offset after the change in both cases,
 * so when the time lies within one change's width after it, the earlier offset is used instead.
 */
function epochMs(time: ICAL.Time, hostZone: string, seriesTzid?: string): number {
  const zone = time.zone;
  if (time.isDate || !zone || zone === ICAL.Timezone.localTimezone) {
    // RFC 5545 3.3.4/3.3.5: a date or a floating time means that wall clock
    // wherever it is seen, here the host's zone; so does a TZID the feed names
    // without defining, when it is an IANA name we know. An expanded instance
    // has lost that TZID: the series' own is passed in.
    const tzid = tzidOf(time) ?? seriesTzid;
    const named = tzid && isTimeZone(tzid) ? tzid : hostZone;
    const date = { year: time.year, month: time.month, day: time.day };
    return time.isDate
      ? wallClockToInstant(date, 0, 0, named)
      : wallClockToInstant(date, time.hour, time.minute, named) + time.second * 1000;
  }
  const wallMs = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  if (zone === ICAL.Timezone.utcTimezone) return wallMs;
  const offsetShiftedBy = (seconds: number) => zone.utcOffset(time.clone().adjust(0, 0, 0, seconds));
  const offset = zone.utcOffset(time);
  // A day earlier is taken to lie before any change near this time; zones change at most twice a year.
  const before = offsetShiftedBy(-86_400);
  const inChange = before !== offset && offsetShiftedBy(-Math.abs(offset - before)) === before;
  return wallMs - (inChange ? before : offset) * 1000;
}
