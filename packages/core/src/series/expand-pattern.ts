import { addDays, type CivilDate, formatCivilDate, wallClockToInstant, weekdayOf } from '../wall-clock.js';
import type { Pattern, PatternInstant, PatternWeekday } from './pattern.js';

// Days counted from Monday: RFC 5545's default week start (WKST=MO), which
// decisions.md "Series expansion" adopts, so Sunday closes a week.
const MONDAY_FIRST: readonly PatternWeekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * Every instant of a pattern in order, from `startsOn` on, without end; the
 * caller stops it. Rules: decisions.md "Series expansion".
 */
export function* patternInstants(pattern: Pattern): Generator<PatternInstant> {
  const start = parseDate(pattern.startsOn);
  const [hour, minute] = parseTime(pattern.time);
  const at = (date: CivilDate): PatternInstant => ({
    date: formatCivilDate(date),
    // Gap moves forward, overlap takes the first instant (RFC 5545 3.3.5).
    instantMs: wallClockToInstant(date, hour, minute, pattern.timezone),
  });

  if (pattern.frequency === 'monthly_same_day') {
    // A month without starts_on's day has no occurrence and is not counted
    // (RFC 5545 drops invalid dates, 3.3.10); never clamped to the month's end.
    // Each turn advances one month, so even day 31 keeps yielding.
    for (let months = 0; ; months++) {
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
  for (let week = 0; ; week += pattern.intervalWeeks) {
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
 * (decisions.md "Series expansion", candidates).
 */
export function expandPattern(pattern: Pattern, count: number, nowMs: number): PatternInstant[] {
  const found: PatternInstant[] = [];
  if (count <= 0) return found;
  for (const candidate of patternInstants(pattern)) {
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
