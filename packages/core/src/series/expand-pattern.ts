import { DAY_MS } from '../time.js';
import { addDays, type CivilDate, formatCivilDate, wallClockToInstant, weekdayOf } from '../wall-clock.js';
import type { Pattern, PatternInstant, PatternWeekday } from './pattern.js';

// Days counted from Monday: RFC 5545's default week start (WKST=MO), which
// docs/api/series.md "The pattern" adopts, so Sunday closes a week.
const MONDAY_FIRST: readonly PatternWeekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Whole days from civil date `a` to `b`. */
function daysBetween(a: CivilDate, b: CivilDate): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

/** The UTC civil date of an instant. */
function utcDateOf(ms: number): CivilDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * Every instant of a pattern in order, from `startsOn` on, without end; the
 * caller stops it. Rules: docs/api/series.md "The pattern".
 *
 * `notBeforeMs`, when given, lets the walk skip whole periods (weeks of the
 * pattern, months) that end before it, so a series that started years ago
 * costs no more than one starting today. Instants before `notBeforeMs` may
 * still be yielded from the first period walked; callers filter them.
 */
export function* patternInstants(pattern: Pattern, notBeforeMs?: number): Generator<PatternInstant> {
  const start = parseDate(pattern.startsOn);
  const [hour, minute] = parseTime(pattern.time);
  const at = (date: CivilDate): PatternInstant => ({
    date: formatCivilDate(date),
    // Gap moves forward, overlap takes the first instant (RFC 5545 3.3.5).
    instantMs: wallClockToInstant(date, hour, minute, pattern.timezone),
  });

  // Two days before notBefore in UTC: no zone is that far from UTC, so a
  // period ending before this date holds no instant at or after notBefore.
  const floor = notBeforeMs === undefined ? undefined : utcDateOf(notBeforeMs - 2 * DAY_MS);

  if (pattern.frequency === 'monthly_same_day') {
    // A month without starts_on's day has no occurrence and is not counted
    // (RFC 5545 drops invalid dates, 3.3.10); never clamped to the month's end.
    // Each turn advances one month, so even day 31 keeps yielding. The walk
    // starts in floor's month: every month before it ends before floor.
    const skip = floor === undefined ? 0 : Math.max(0, (floor.year - start.year) * 12 + (floor.month - start.month));
    for (let months = skip; ; months++) {
      const monthIndex = start.month - 1 + months;
      const date = { year: start.year + Math.floor(monthIndex / 12), month: (monthIndex % 12) + 1, day: start.day };
      if (date.day <= daysInMonth(date.year, date.month)) yield at(date);
    }
  }

  // Walked in day order whatever order they were listed in; a duplicate
  // (rejected by validation) must not yield the same instant twice.
  const days = [...new Set(pattern.weekdays.map((day) => MONDAY_FIRST.indexOf(day)))].filter((d) => d >= 0).sort((a, b) => a - b);
  if (days.length === 0) return; // validation rejects this; without the guard the loop below would spin
  if (!Number.isInteger(pattern.intervalWeeks) || pattern.intervalWeeks < 1) {
    // Validation keeps this at 1..8; a zero step would repeat week 0 forever.
    throw new RangeError(`intervalWeeks must be a positive integer, got ${pattern.intervalWeeks}`);
  }

  // Week 0 is the Monday-start week holding starts_on; weeks 0, n, 2n, ...
  const startDay = MONDAY_FIRST.indexOf(weekdayOf(start));
  const weekZero = addDays(start, -startDay);
  const weeksBefore = floor === undefined ? 0 : Math.floor(daysBetween(weekZero, floor) / 7);
  const firstWeek = Math.max(0, Math.floor(weeksBefore / pattern.intervalWeeks) * pattern.intervalWeeks);
  for (let week = firstWeek; ; week += pattern.intervalWeeks) {
    for (const day of days) {
      // Never a day before starts_on, which only week 0 can hold.
      if (week === 0 && day < startDay) continue;
      yield at(addDays(weekZero, week * 7 + day));
    }
  }
}

/**
 * The first `count` instants of a pattern strictly after `nowMs`, on or after
 * `startsOn`: past instants are passed over and neither counted nor reported
 * (docs/api/series.md "The pattern", candidates).
 */
export function expandPattern(pattern: Pattern, count: number, nowMs: number): PatternInstant[] {
  const found: PatternInstant[] = [];
  if (count <= 0) return found;
  for (const candidate of patternInstants(pattern, nowMs)) {
    if (candidate.instantMs <= nowMs) continue;
    found.push(candidate);
    if (found.length >= count) break;
  }
  return found;
}

function parseDate(text: string): CivilDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new RangeError(`startsOn must be YYYY-MM-DD, got ${text}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

function parseTime(text: string): [number, number] {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new RangeError(`time must be HH:MM, got ${text}`);
  return [Number(match[1]), Number(match[2])];
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
