import { addDays, type CivilDate, civilDateOf, formatCivilDate, wallClockToInstant, weekdayOf } from '../wall-clock.js';
import type { Schedule } from '../workspace/workspace-schema.js';
import type { Interval } from './busy.js';

function instantOf(date: CivilDate, hhmm: string, zone: string): number {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  // "24:00" ends the day: it is the next day's midnight.
  return hour === 24 ? wallClockToInstant(addDays(date, 1), 0, 0, zone) : wallClockToInstant(date, hour, minute, zone);
}

/**
 * A host without a schedule is free around the clock (workspace.md): every
 * local day from 00:00 to 24:00 in the host's zone, so the slot grid is
 * anchored at local midnight rather than wherever a query happens to start.
 */
const AROUND_THE_CLOCK: Schedule = {
  weekly: Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((day) => [day, [['00:00', '24:00']]])),
  overrides: [],
};

/**
 * The host's working intervals that overlap `range`, as instants. Intervals
 * are wall-clock times in the schedule's zone, so a 09:00–17:00 day stays
 * 09:00–17:00 local on both sides of a DST change; a date override replaces
 * that date's weekly intervals.
 * Intervals are not clipped to the range: the slot grid is anchored at their start.
 */
export function workingIntervals(given: Schedule | null, fallbackZone: string, range: Interval): Interval[] {
  const schedule = given ?? AROUND_THE_CLOCK;
  const zone = schedule.timezone ?? fallbackZone;
  const overrides = new Map(schedule.overrides.map((o) => [o.date, o.intervals]));
  const out: Interval[] = [];
  // A day either side: an interval of the previous local day can reach into the range.
  const last = addDays(civilDateOf(range.endMs, zone), 1);
  for (let date = addDays(civilDateOf(range.startMs, zone), -1); ; date = addDays(date, 1)) {
    const intervals = overrides.get(formatCivilDate(date)) ?? schedule.weekly[weekdayOf(date)] ?? [];
    for (const [from, to] of intervals) {
      const interval = { startMs: instantOf(date, from, zone), endMs: instantOf(date, to, zone) };
      if (interval.endMs > interval.startMs && interval.startMs < range.endMs && range.startMs < interval.endMs) out.push(interval);
    }
    if (formatCivilDate(date) === formatCivilDate(last)) break;
  }
  return joinOverlapping(out.sort((a, b) => a.startMs - b.startMs));
}

/**
 * Overlapping intervals of a day (09–11 and 10–12) are one stretch of work
 * (09–12), so no start is offered twice. Intervals that only touch stay
 * apart: each keeps the grid anchored at its own start.
 */
function joinOverlapping(sorted: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const next of sorted) {
    const last = out.at(-1);
    if (last && next.startMs < last.endMs) out[out.length - 1] = { startMs: last.startMs, endMs: Math.max(last.endMs, next.endMs) };
    else out.push(next);
  }
  return out;
}
