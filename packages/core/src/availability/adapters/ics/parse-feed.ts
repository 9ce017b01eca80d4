import ICAL from 'ical.js';
import { type Block, splitCalendars } from './repair-lines.js';
import type { SkippedEvent, SkipReason } from './skipped-event.js';
import { readableTimezone, repairTimezone } from './zones.js';

/** One recurring (or single) event and the overrides (RECURRENCE-ID) that replace some of its occurrences. */
export interface Series {
  /** The name it is reported by if left out: its UID, or its place in the feed when it has none. */
  readonly uid: string;
  readonly event: ICAL.Event;
  readonly overrides: readonly ICAL.Event[];
  /**
   * `RDATE;VALUE=PERIOD` instances (RFC 5545 3.8.5.2: each with its own
   * start and end). ical.js cannot expand them, so they are taken out of the
   * event and read here.
   */
  readonly periods: readonly ICAL.Period[];
}

export interface ParsedFeed {
  readonly series: readonly Series[];
  /** VEVENTs read, overrides included. */
  readonly events: number;
  readonly skipped: readonly SkippedEvent[];
}

/**
 * Reads a feed's events, leaving out (and naming) each one that cannot be
 * read, so one broken event never hides the rest of a host's busy time.
 * Throws only when the text is not iCalendar at all.
 *
 * Overrides are related to their series by UID explicitly: left alone,
 * ical.js relates every RECURRENCE-ID in a calendar to every series, and
 * another series' override would replace an occurrence.
 */
export function parseFeed(text: string): ParsedFeed {
  const skipped: SkippedEvent[] = [];
  const byUid = new Map<string, { masters: ICAL.Component[]; overrides: ICAL.Component[] }>();
  let events = 0;
  splitCalendars(text).forEach((calendarText, c) => {
    const calendar = readCalendar(calendarText.properties);
    const read = calendarText.blocks.map((block) => ({ block, component: readBlock(block) }));
    // Zones first, wherever the feed put them: a TZID is resolved when its value is first decoded.
    for (const { block, component } of read) {
      // Stryker disable next-line StringLiteral,ConditionalExpression: an event also added here is added again, to the same calendar, below (tests catch the mutants that let an unreadable block through)
      if (block.name === 'VEVENT' || !component) continue;
      // Stryker disable next-line ConditionalExpression: another component would be left out as a zone without TZID; only VTIMEZONEs change how events read
      if (component.name === 'vtimezone') {
        // A broken one is left out: its TZID is then read as an IANA name or in the host's zone.
        if (!readableTimezone(component)) continue;
        repairTimezone(component);
      }
      calendar.addSubcomponent(component);
    }
    read.forEach(({ block, component }, b) => {
      if (block.name !== 'VEVENT') return;
      const uid = block.uid ?? `no-uid-${c}-${b}`;
      if (!component) {
        skipped.push({ uid, reason: 'unparseable' });
        return;
      }
      // In its own calendar, a TZID resolves against that calendar's VTIMEZONEs
      // (Component#getTimeZoneByID), never the process-wide TimezoneService,
      // where feeds would overwrite each other's zones.
      calendar.addSubcomponent(component);
      const problem = problemOf(component);
      if (problem) {
        calendar.removeSubcomponent(component);
        skipped.push({ uid, reason: problem });
        return;
      }
      events++;
      const group = byUid.get(uid) ?? { masters: [], overrides: [] };
      byUid.set(uid, group);
      (component.hasProperty('recurrence-id') ? group.overrides : group.masters).push(component);
    });
  });

  const series: Series[] = [];
  for (const [uid, group] of byUid) {
    const masters = newestRevisions(group.masters);
    // Stryker disable next-line ObjectLiteral: ical.js relates exceptions only to a series, never to an override
    const asEvents = newestRevisions(group.overrides).map((o) => new ICAL.Event(o, { exceptions: [] }));
    // An override whose series is missing from the feed is still a busy time of its own, with its own periods.
    if (masters.length === 0) for (const o of asEvents) series.push({ uid, event: o, overrides: [], periods: takePeriods(o.component) });
    for (const master of masters) {
      const periods = takePeriods(master);
      series.push({ uid, event: new ICAL.Event(master, { exceptions: asEvents }), overrides: asEvents, periods });
    }
  }
  return { series, events, skipped };
}

/**
 * RFC 5545 §3.8.7.4: a producer that changes an event raises its SEQUENCE,
 * and exports (and mailboxes turned into feeds) may hold the older revisions
 * too. Of the components that share one UID and RECURRENCE-ID only the
 * newest revision counts: the highest SEQUENCE, then the latest DTSTAMP.
 * Revisions that tie on both are all kept: nothing says which one is meant,
 * and busy time read twice is safer than busy time lost.
 */
function newestRevisions(components: readonly ICAL.Component[]): ICAL.Component[] {
  const newest = new Map<string, { rank: readonly [number, number]; kept: ICAL.Component[] }>();
  for (const component of components) {
    // Stryker disable next-line StringLiteral: any one key for the series itself, which has no RECURRENCE-ID
    const id = String(component.getFirstPropertyValue('recurrence-id') ?? '');
    const rank = [Number(component.getFirstPropertyValue('sequence')) || 0, stampOf(component)] as const;
    const held = newest.get(id);
    const order = held ? rank[0] - held.rank[0] || rank[1] - held.rank[1] : 1;
    if (!held || order > 0) newest.set(id, { rank, kept: [component] });
    else if (order === 0) held.kept.push(component);
  }
  return [...newest.values()].flatMap((n) => n.kept);
}

/** DTSTAMP as a number to compare, 0 when missing or unreadable. */
function stampOf(component: ICAL.Component): number {
  try {
    const stamp = component.getFirstPropertyValue('dtstamp') as ICAL.Time | null;
    return stamp ? stamp.toUnixTime() : 0;
  } catch {
    return 0;
  }
}

/** The calendar's own properties; when even they cannot be read, an empty calendar still holds the events. */
function readCalendar(properties: string): ICAL.Component {
  try {
    return new ICAL.Component(ICAL.parse(properties) as unknown[]);
  } catch {
    return new ICAL.Component('vcalendar');
  }
}

function readBlock(block: Block): ICAL.Component | undefined {
  try {
    return new ICAL.Component(ICAL.parse(block.text) as unknown[]);
  } catch {
    return undefined;
  }
}

/**
 * Values decode lazily; decoding every time and rule now, and starting the
 * rule's expansion, finds a broken event here, where it can be left out
 * alone and counted, not in the middle of a read.
 */
function problemOf(vevent: ICAL.Component): SkipReason | undefined {
  try {
    if (!vevent.getFirstPropertyValue('dtstart')) return 'no_start';
    for (const name of ['dtend', 'duration', 'rrule', 'rdate', 'exdate', 'recurrence-id']) {
      for (const property of vevent.getAllProperties(name)) property.getValues();
    }
  } catch {
    return 'bad_value';
  }
  try {
    // A rule that decodes may still refuse to start (no FREQ, or BYMONTHDAY in a WEEKLY rule).
    // Stryker disable next-line ConditionalExpression: an event without a rule starts its expansion without fail
    if (vevent.hasProperty('rrule')) new ICAL.Event(vevent).iterator();
    return undefined;
  } catch {
    return 'unexpandable';
  }
}

/** Takes a master's `RDATE;VALUE=PERIOD` properties out of it, and answers their periods. */
function takePeriods(vevent: ICAL.Component): ICAL.Period[] {
  const periods: ICAL.Period[] = [];
  // Stryker disable next-line StringLiteral: getAllProperties('') answers every property, and in a VEVENT only RDATE holds periods (RFC 5545 §3.6.1)
  for (const property of vevent.getAllProperties('rdate')) {
    if (property.type !== 'period') continue;
    periods.push(...(property.getValues() as ICAL.Period[]));
    vevent.removeProperty(property);
  }
  return periods;
}
