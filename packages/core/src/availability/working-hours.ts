import { type Schedule, WEEKDAYS } from '../event-types/schedule.js';
import { addDays, type CivilDate, civilDateOf, formatCivilDate, wallClockToInstant, weekdayOf } from '../wall-clock.js';
import { type Interval, mergeIntervals } from './busy.js';

function instantOf(date: CivilDate, hhmm: string, zone: string): number {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  // "24:00" ends the day: it is the next day's midnight.
  // Stryker disable next-line ConditionalExpression: Date.UTC reads hour 24 of a date as 00:00 of the next, so wallClockToInstant(date, 24, 0) names the same instant as the branch.
  return hour === 24 ? wallClockToInstant(addDays(date, 1), 0, 0, zone) : wallClockToInstant(date, hour, minute, zone);
}

/** A host without a schedule is free around the clock (docs/workspace.md): every local day from 00:00 to 24:00. */
export const AROUND_THE_CLOCK: Schedule = {
  weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, [['00:00', '24:00']]])),
  overrides: [],
};

/**
 * Local days read on either side of a range. A written interval lies within
 * its own day, a DST gap moves an instant by at most a few hours, and a
 * meeting the checks ask about is shorter than a day, so two days either
 * side hold every interval that can touch the range or merge with one that does.
 */
const PADDING_DAYS = 2;

/** The host's working time: the schedule (or around the clock) and the zone its hours are read in. */
export interface WorkingTime {
  /** Stretches of work: written hours as instants, touching and overlapping ones merged, sorted. */
  readonly stretches: readonly Interval[];
  readonly zone: string;
}

/**
 * The host's working time around `range`, as one set of instants: the weekly
 * hours (or a date's override) of every local day that can reach the range,
 * each read in the schedule's zone with the one wall-clock rule, then merged
 * where they touch or overlap, before anything looks at them. So a meeting
 * that fits in continuous working time fits, whatever day boundary or written
 * interval it crosses, and the stretches do not depend on the range asked
 * about (only those overlapping it are returned, whole).
 */
export function workingTime(given: Schedule | null, fallbackZone: string, range: Interval): WorkingTime {
  const schedule = given ?? AROUND_THE_CLOCK;
  const zone = schedule.timezone ?? fallbackZone;
  const overrides = new Map(schedule.overrides.map((o) => [o.date, o.intervals]));
  // Stryker disable next-line ArrayDeclaration: a seeded entry without startMs and endMs has no length, and mergeIntervals drops every interval that does not end after it starts.
  const written: Interval[] = [];
  const last = formatCivilDate(addDays(civilDateOf(range.endMs, zone), PADDING_DAYS));
  for (let date = addDays(civilDateOf(range.startMs, zone), -PADDING_DAYS); ; date = addDays(date, 1)) {
    const day = formatCivilDate(date);
    // Stryker disable next-line ArrayDeclaration: a seeded entry is read as hours 'S' to 't', which are NaN instants; mergeIntervals drops that interval of no length, so the day stays closed.
    for (const [from, to] of overrides.get(day) ?? schedule.weekly[weekdayOf(date)] ?? []) {
      written.push({ startMs: instantOf(date, from, zone), endMs: instantOf(date, to, zone) });
    }
    if (day === last) break;
  }
  const stretches = mergeIntervals(written).filter((s) => s.startMs < range.endMs && range.startMs < s.endMs);
  return { stretches, zone };
}

/** The first instant of the local day `epochMs` falls on (the day's midnight, or the first instant after a gap at midnight). */
function dayStartOf(epochMs: number, zone: string): number {
  return wallClockToInstant(civilDateOf(epochMs, zone), 0, 0, zone);
}

/**
 * Where the slot grid of a stretch is anchored for a start inside it: the
 * stretch's own start, or the last local midnight inside the stretch before
 * that start, whichever is later. So a grid never depends on the window a
 * caller asks about, a host without a schedule has its grid at every local
 * midnight, and a stretch that runs past midnight starts its grid again there.
 */
export function gridAnchorOf(stretch: Interval, startMs: number, zone: string): number {
  return Math.max(stretch.startMs, dayStartOf(startMs, zone));
}

/** The grid anchors of a stretch in order: its start, then each local midnight inside it. */
export function gridAnchors(stretch: Interval, zone: string): number[] {
  const anchors = [stretch.startMs];
  for (let day = civilDateOf(stretch.startMs, zone); ; ) {
    day = addDays(day, 1);
    const midnight = wallClockToInstant(day, 0, 0, zone);
    if (midnight >= stretch.endMs) return anchors;
    if (midnight > anchors.at(-1)!) anchors.push(midnight);
  }
}

/** The stretches of working time that overlap `range` (see workingTime). */
export function workingIntervals(given: Schedule | null, fallbackZone: string, range: Interval): Interval[] {
  return [...workingTime(given, fallbackZone, range).stretches];
}
