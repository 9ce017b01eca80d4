import ICAL from 'ical.js';
import { bookingUidOfEvent } from '../../../booking-event-uid.js';
import { wallClockToInstant } from '../../../wall-clock.js';
import { type Interval, overlaps } from '../../busy.js';
import type { Series } from './parse-feed.js';
import type { SkippedEvent } from './skipped-event.js';
import { ianaZoneOf, offsetBeforeFirstOnset, windowsZoneOf } from './zones.js';

/** Occurrences one series may produce before the range (the window read) ends; a FREQ=SECONDLY rule from 1970 must not hang a request. */
export const MAX_OCCURRENCES = 10_000;

/**
 * Occurrences all the series of a feed may produce together before the range
 * ends. ical.js works one out in about 10 µs, so expanding any feed costs at
 * most about 0.2 s of the event loop, however many dense events it holds.
 */
export const MAX_FEED_OCCURRENCES = 20_000;

/**
 * Thrown when the rules of a feed cannot be expanded within MAX_OCCURRENCES
 * for one event or MAX_FEED_OCCURRENCES for all: that busy time is then
 * unknown, not free, and the calendar unreadable rather than read in part.
 */
export class ExpansionBound extends Error {
  override readonly name = 'ExpansionBound';
}

/**
 * The busy times of a parsed feed that overlap `range`, unclipped, in start
 * order. Throws ExpansionBound past the bounds. Any other failure to expand
 * one event (ical.js gives up on some rules midway) leaves that event out
 * alone, and tells `onSkipped`: one broken event never costs the rest.
 */
export function busyWithin(
  feed: readonly Series[],
  range: Interval,
  hostZone: string,
  onSkipped?: (skipped: SkippedEvent) => void,
): Interval[] {
  const busy: Interval[] = [];
  const spent = { occurrences: 0 };
  for (const series of feed) {
    try {
      busy.push(...seriesBusy(series, range, hostZone, spent));
    } catch (error) {
      if (error instanceof ExpansionBound) throw error;
      onSkipped?.({ uid: series.uid, reason: 'unexpandable' });
    }
  }
  return busy.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** One series' busy times that overlap `range`; `spent` counts the occurrences of the whole feed. */
function seriesBusy({ event, overrides, periods }: Series, range: Interval, hostZone: string, spent: { occurrences: number }): Interval[] {
  const busy: Interval[] = [];
  // RFC 5545 §3.8.5.3: every instance lasts the exact duration of the event
  // that defines it; worked out once per event, not per instance (ical.js
  // builds a new end time on every read of endDate). An end computed from
  // DURATION has lost a TZID the feed does not define: it is the start's.
  const lengths = new Map<ICAL.Event, number>();
  const lengthOf = (item: ICAL.Event) => {
    let length = lengths.get(item);
    // Stryker disable next-line ConditionalExpression: the cache only saves working a length out again; the length is the same
    if (length === undefined) {
      const own = tzidOf(item.startDate);
      length = endMs(item, hostZone, own) - epochMs(item.startDate, hostZone, own);
      lengths.set(item, length);
    }
    return length;
  };
  const push = (interval: Interval, item: ICAL.Event) => {
    // A DATE-TIME start without DTEND or DURATION lasts zero time (§3.6.1) and blocks nothing.
    if (!(interval.endMs > interval.startMs && overlaps(interval, range))) return;
    // An event this service wrote for one of its bookings says so: the booking itself is the truth (load-host-time.ts).
    // Many producers (Thunderbird, Exchange, Data::ICal) leave UID out: such an event is ordinary busy time.
    const bookingUid = item.uid ? bookingUidOfEvent(item.uid) : undefined;
    busy.push(bookingUid === undefined ? interval : { ...interval, bookingUid });
  };
  // `tzid`: the zone the event's DTSTART names, for expanded instances, which ical.js gives without it.
  const add = (item: ICAL.Event, start: ICAL.Time, tzid?: string) => {
    if (!isBusy(item)) return;
    const startMs = epochMs(start, hostZone, tzid);
    if (start.isDate) {
      // An all-day instance blocks its whole local days, 23 or 25 hours across a DST change.
      const end = start.clone();
      end.addDuration(item.duration);
      push({ startMs, endMs: epochMs(end, hostZone, tzid) }, item);
      return;
    }
    push({ startMs, endMs: startMs + lengthOf(item) }, item);
  };

  for (const override of overrides) add(override, override.startDate);
  const tzid = tzidOf(event.startDate);
  const excluded = exclusionsOf(event, hostZone, tzid);
  const isExcluded = (time: ICAL.Time, ms: number) => excluded.instants.has(ms) || excluded.days.has(dayOf(time));
  if (isBusy(event)) {
    for (const period of periods) {
      const startMs = epochMs(period.start, hostZone, tzid);
      // EXDATE removes any instance of the set (§3.8.5.1), a period's too.
      if (!isExcluded(period.start, startMs)) push({ startMs, endMs: epochMs(period.getEnd(), hostZone, tzid) }, event);
    }
  }
  if (!event.isRecurring()) {
    add(event, event.startDate);
    return busy;
  }
  // An occurrence replaced by an override was counted above at the override's own time.
  const occurrence = (time: ICAL.Time) => {
    // Without overrides every occurrence is the master's own; asking ical.js costs a lookup per instance.
    // Stryker disable next-line ConditionalExpression: without overrides ical.js answers the master itself, read the same way; the shortcut saves the lookup
    if (overrides.length === 0) return add(event, time, tzid);
    const details = event.getOccurrenceDetails(time);
    if (details.item !== event && details.item.recurrenceId.compare(time) === 0) return;
    add(details.item, details.startDate, details.item === event ? tzid : undefined);
  };
  // §3.8.5: DTSTART is the first instance of the set. ical.js leaves it out
  // when RDATEs stand without an RRULE, so it is counted here, once.
  const startMs = epochMs(event.startDate, hostZone, tzid);
  // Stryker disable next-line StringLiteral: under an RRULE ical.js yields DTSTART first, and the loop skips an instance at DTSTART: counted once either way
  const startSelf = !event.component.hasProperty('rrule');
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a start at or after the range's end is left out by the overlap test anyway (the guard saves the lookup)
  if (startSelf && startMs < range.endMs && !isExcluded(event.startDate, startMs)) occurrence(event.startDate);
  // Stryker disable next-line ArithmeticOperator: the new start keeps a day and a period of margin, more than any event's length moves it
  const occurrences = event.iterator(fastForwarded(event, range.startMs - startMs - lengthOf(event)));
  let count = 0;
  let previousMs: number | undefined;
  for (let next: ICAL.Time | undefined = occurrences.next(); next; next = occurrences.next()) {
    const nextMs = epochMs(next, hostZone, tzid);
    // Occurrences come in start order, so nothing later can overlap the range.
    if (nextMs >= range.endMs) break;
    if (++count > MAX_OCCURRENCES)
      throw new ExpansionBound(`event ${event.uid} recurs more than ${MAX_OCCURRENCES} times before the window ends`);
    if (++spent.occurrences > MAX_FEED_OCCURRENCES)
      throw new ExpansionBound(`its events recur more than ${MAX_FEED_OCCURRENCES} times in all before the window ends`);
    // §3.8.5.3: an instance two rules (or a rule and an RDATE) both give is one instance; ical.js gives it twice.
    const repeated = nextMs === previousMs;
    previousMs = nextMs;
    if (repeated || isExcluded(next, nextMs) || (startSelf && nextMs === startMs)) continue;
    occurrence(next);
  }
  return busy;
}

/**
 * Where an event's first instance ends. RFC 5545 §3.3.6: a DURATION's weeks
 * and days are nominal (the same wall clock that many days later), its hours,
 * minutes and seconds exact; ical.js adds all of them to the wall clock, which
 * across a DST change ends an event of hours an hour early or late.
 */
function endMs(item: ICAL.Event, hostZone: string, tzid: string | undefined): number {
  const duration = item.component.getFirstPropertyValue('duration') as ICAL.Duration | null;
  if (!duration) return epochMs(item.endDate, hostZone, tzid);
  const days = item.startDate.clone();
  days.addDuration(new ICAL.Duration({ weeks: duration.weeks, days: duration.days, isNegative: duration.isNegative }));
  const exactMs = ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000;
  return epochMs(days, hostZone, tzid) + (duration.isNegative ? -exactMs : exactMs);
}

const DAY_MS = 86_400_000;

/**
 * Where to start expanding a daily or weekly rule that began long before the
 * range, so that a series running since the 1990s costs its occurrences near
 * the range, not its whole history, and stays within MAX_OCCURRENCES. The
 * rule's set repeats every INTERVAL days (or weeks) of wall clock, so starting
 * a whole number of those later gives the same occurrences from there on.
 * Not for COUNT (counted from DTSTART), nor for other frequencies, whose
 * periods differ in length (months) or are cut by DST (hours). `lead`: the
 * time from DTSTART to the earliest start that can still overlap the range.
 * The new start is kept at least a period and a day (for zones) before that:
 * RFC 5545 leaves a start the rule would not give undefined, and one that
 * ends before the range cannot count whichever way it is read.
 */
function fastForwarded(event: ICAL.Event, lead: number): ICAL.Time | undefined {
  const rules = event.component.getAllProperties('rrule');
  const rule = rules.length === 1 ? (rules[0]?.getFirstValue() as ICAL.Recur) : undefined;
  if (!rule || rule.count || (rule.freq !== 'DAILY' && rule.freq !== 'WEEKLY')) return undefined;
  // Stryker disable next-line ConditionalExpression: a daily rule's set repeats every seven days too; only how far it skips ahead differs
  const periodDays = (rule.interval || 1) * (rule.freq === 'WEEKLY' ? 7 : 1);
  // Stryker disable next-line ArithmeticOperator: either margin alone (the day or the period) keeps the start before the range
  const periods = Math.floor((lead - DAY_MS) / (periodDays * DAY_MS)) - 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: moving back by whole periods gives the same set within the range; only the cost differs
  if (periods <= 0) return undefined;
  const start = event.startDate.clone();
  start.adjust(periods * periodDays, 0, 0, 0);
  return start;
}

/**
 * A series' EXDATEs, compared as instants: ical.js compares the wall clocks
 * it has, and has none for a TZID the feed does not define. A DATE excluded
 * from a series of DATE-TIMEs (some producers write them so) removes every
 * occurrence on that day of the series' own calendar.
 */
function exclusionsOf(event: ICAL.Event, hostZone: string, tzid: string | undefined) {
  const instants = new Set<number>();
  const days = new Set<string>();
  const timed = !event.startDate.isDate;
  for (const property of event.component.getAllProperties('exdate')) {
    for (const time of property.getValues() as ICAL.Time[]) {
      if (timed && time.isDate) days.add(dayOf(time));
      else instants.add(epochMs(time, hostZone, tzid));
    }
  }
  return { instants, days };
}

function dayOf(time: ICAL.Time): string {
  return `${time.year}-${time.month}-${time.day}`;
}

/** TRANSP:TRANSPARENT (shown as free) and STATUS:CANCELLED events block no time. */
function isBusy(event: ICAL.Event): boolean {
  // Stryker disable next-line StringLiteral: a missing TRANSP or STATUS is busy with any placeholder that is neither TRANSPARENT nor CANCELLED
  const value = (name: string) => String(event.component.getFirstPropertyValue(name) ?? '').toUpperCase();
  return value('transp') !== 'TRANSPARENT' && value('status') !== 'CANCELLED';
}

/** The TZID a time was written with, kept by ical.js outside its typings when the feed does not define the zone. */
function tzidOf(time: ICAL.Time): string | undefined {
  return (time as ICAL.Time & { timezone?: string }).timezone;
}

/**
 * The instant a time names. In order:
 * - a date, or a floating time (RFC 5545 3.3.4/3.3.5): that wall clock in the
 *   host's zone, unless it carries a TZID naming an IANA zone;
 * - UTC;
 * - a TZID naming an IANA zone, the feed's VTIMEZONE or not: IANA's rules,
 *   which are kept current where a feed's copy is often partial or stale;
 * - the feed's own VTIMEZONE (Outlook's `W. Europe Standard Time`);
 * - a Windows zone ID the feed does not define: the IANA zone CLDR maps it to;
 * - a TZID that is none of these: the host's zone.
 * An expanded instance has lost a TZID the feed does not define: the series' own is passed in.
 */
export function epochMs(time: ICAL.Time, hostZone: string, seriesTzid?: string): number {
  const zone = time.zone;
  const floating = !zone || zone === ICAL.Timezone.localTimezone;
  if (!floating && zone === ICAL.Timezone.utcTimezone && !time.isDate) {
    return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  }
  // Stryker disable next-line ConditionalExpression: a UTC time here is a DATE, which ical.js reads with no zone, TZID=UTC too (other mutants of the line are killed)
  const defined = !floating && zone !== ICAL.Timezone.utcTimezone ? zone : undefined;
  const tzid = defined?.tzid ?? tzidOf(time) ?? seriesTzid;
  const iana = ianaZoneOf(tzid);
  if (defined && !iana && !time.isDate) return inFeedZone(time, defined);
  const date = { year: time.year, month: time.month, day: time.day };
  const named = iana ?? windowsZoneOf(tzid) ?? hostZone;
  return time.isDate ? wallClockToInstant(date, 0, 0, named) : wallClockToInstant(date, time.hour, time.minute, named) + time.second * 1000;
}

/**
 * A time in a zone the feed defines and IANA does not name. RFC 5545 §3.3.5:
 * a local time skipped by a DST change takes the offset from before the
 * change, and one that happens twice means its first instant. ical.js takes
 * the offset after the change in both cases, so when the time lies within one
 * change's width after it, the earlier offset is used instead.
 */
function inFeedZone(time: ICAL.Time, zone: ICAL.Timezone): number {
  const wallMs = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  const early = offsetBeforeFirstOnset(zone, wallMs);
  if (early !== undefined) return wallMs - early * 1000;
  const offsetShiftedBy = (seconds: number) => zone.utcOffset(time.clone().adjust(0, 0, 0, seconds));
  const offset = zone.utcOffset(time);
  // A day earlier is taken to lie before any change near this time; zones change at most twice a year.
  const before = offsetShiftedBy(-86_400);
  // Stryker disable next-line ConditionalExpression: when the offset a day earlier is the same, both readings agree (the mutant that drops the test is killed: spring-forward gap)
  const inChange = before !== offset && offsetShiftedBy(-Math.abs(offset - before)) === before;
  return wallMs - (inChange ? before : offset) * 1000;
}
