import { DateTime, IANAZone } from 'luxon';

/** A civil date: what a calendar on the wall shows, with no zone. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const offsets = new Map<string, number>();

/**
 * The zone's UTC offset at an instant, in minutes. Asking Intl costs
 * microseconds and availability asks thousands of times, so an answer is kept
 * per zone and quarter hour whenever the offset is the same at both ends of
 * that quarter (true of all but the quarter holding a change, which is asked
 * afresh each time).
 */
function offsetMinutesAt(epochMs: number, zone: string): number {
  // Stryker disable next-line ArithmeticOperator: a quarter number multiplied instead of divided lies beyond any date, so its offset is NaN, never equal to itself, and every answer is asked afresh: the same offset, uncached.
  const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
  const key = `${zone}|${quarter}`;
  const known = offsets.get(key);
  // Stryker disable next-line ConditionalExpression: never answering from the cache asks Intl afresh, which gives the offset that was cached (the line's other mutant, answering undefined, is killed).
  if (known !== undefined) return known;
  const tz = IANAZone.create(zone);
  // Both ends are read from one start, so a wrong start is caught: it would cache another quarter's offset for this one.
  const start = quarter * QUARTER_HOUR_MS;
  const atStart = tz.offset(start);
  const next = start + QUARTER_HOUR_MS;
  // Stryker disable next-line ConditionalExpression,ArithmeticOperator: never caching, or looking a millisecond into the next quarter instead of at this one's last, only leaves more quarters uncached, asked afresh for the same offsets (always caching is killed).
  if (atStart !== tz.offset(next - 1)) return tz.offset(epochMs);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: when the cache is emptied only bounds its memory and speed; an emptied cache asks Intl afresh for the same offsets.
  if (offsets.size >= 50_000) offsets.clear();
  offsets.set(key, atStart);
  return atStart;
}

/**
 * The instant a wall-clock time on a civil date names in an IANA zone,
 * by docs/api/series.md "The pattern" (RFC 5545 section 3.3.5 for a single
 * date-time): a time inside a spring-forward gap moves forward by the length
 * of the gap; a time that occurs twice in a fall-back overlap takes the first
 * (earlier) instant. luxon on its own would take the later one.
 */
export function wallClockToInstant(date: CivilDate, hour: number, minute: number, zone: string): number {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // Offsets a day either side bracket any single transition.
  const before = offsetMinutesAt(asUtc - 86_400_000, zone);
  const after = offsetMinutesAt(asUtc + 86_400_000, zone);
  const readings = [...new Set([before, after])]
    .map((offset) => asUtc - offset * 60_000)
    .filter((instant) => offsetMinutesAt(instant, zone) * 60_000 === asUtc - instant);
  if (readings.length > 0) return Math.min(...readings);
  // In a gap: read the time with the offset in force before it, which lands
  // the length of the gap later on the new side.
  return asUtc - before * 60_000;
}

/** The civil date an instant falls on in a zone. */
export function civilDateOf(epochMs: number, zone: string): CivilDate {
  const dt = DateTime.fromMillis(epochMs, { zone });
  return { year: dt.year, month: dt.month, day: dt.day };
}

/** The civil date `days` after `date` (negative for before). */
export function addDays(date: CivilDate, days: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** `YYYY-MM-DD` of a civil date. */
export function formatCivilDate(date: CivilDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** `mon` … `sun` of a civil date. */
export function weekdayOf(date: CivilDate): (typeof WEEKDAY_KEYS)[number] {
  // 1970-01-05 was a Monday.
  const days = Math.floor(Date.UTC(date.year, date.month - 1, date.day) / 86_400_000);
  return WEEKDAY_KEYS[(((days - 4) % 7) + 7) % 7]!;
}
