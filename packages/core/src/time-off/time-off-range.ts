import { DateTime } from 'luxon';
import { ScheduleError } from '../errors.js';
import { parseInstant } from '../time.js';
import { addDays, wallClockToInstant } from '../wall-clock.js';
import type { CreateTimeOffBody } from './time-off-input.js';

/** docs/api/time-off.md: one range covers at most a year and a day; a longer absence is several ranges. */
export const MAX_TIME_OFF_DAYS = 366;

/** The range fields a body sent, in the order start, start_date, end, end_date: the last is blamed for a bad range. */
const sentFields = (body: CreateTimeOffBody) =>
  (['start', 'start_date', 'end', 'end_date'] as const).filter((field) => body[field] !== undefined);

/** A range of time off: `[startMs, endMs)`. */
export interface TimeOffRange {
  readonly startMs: number;
  readonly endMs: number;
}

const invalid = (message: string, ...fields: string[]) => new ScheduleError('validation_error', message, { fields });

const dayStart = (date: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return wallClockToInstant({ year, month, day }, 0, 0, zone);
};
/** The instant a whole day ends: the next day's start, in the zone (23 or 25 hours away across DST). */
const dayEnd = (date: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return wallClockToInstant(addDays({ year, month, day }, 1), 0, 0, zone);
};

/**
 * The latest end for a start: MAX_TIME_OFF_DAYS later on the wall clock of
 * the zone, so 366 whole days are allowed whether or not a change to or from
 * daylight time makes them an hour longer than 366 × 24 hours.
 */
const latestEnd = (startMs: number, zone: string) => DateTime.fromMillis(startMs, { zone }).plus({ days: MAX_TIME_OFF_DAYS }).toMillis();

/** One end of a range as sent: an instant, or a day in the zone; `undefined` when neither was sent. */
function endOf(
  instant: string | undefined,
  date: string | undefined,
  names: readonly [instant: string, date: string],
  fromDate: (date: string) => number,
): number | undefined {
  if (instant !== undefined && date !== undefined) throw invalid(`Send ${names[0]} or ${names[1]}, not both.`, ...names);
  if (instant !== undefined) return parseInstant(instant)!.epochMs;
  return date === undefined ? undefined : fromDate(date);
}

/**
 * The range a create or PATCH asks for, over `current` (a PATCH's stored
 * range; none for a create). Each field sets one end: `start` or `start_date`
 * (that day's 00:00 in `zone`), `end` or `end_date` (the next day's 00:00, so
 * the day is off whole). A create with `start_date` and no end is that one
 * day. The range must end after it starts and last at most MAX_TIME_OFF_DAYS.
 */
export function resolveTimeOffRange(body: CreateTimeOffBody, zone: string, current?: TimeOffRange): TimeOffRange {
  const start = endOf(body.start, body.start_date, ['start', 'start_date'], (d) => dayStart(d, zone)) ?? current?.startMs;
  const sentEnd = endOf(body.end, body.end_date, ['end', 'end_date'], (d) => dayEnd(d, zone));
  const end = sentEnd ?? current?.endMs ?? (body.start_date === undefined ? undefined : dayEnd(body.start_date, zone));
  if (start === undefined) throw invalid('Send start (an instant) or start_date (a whole day).', 'start', 'start_date');
  if (end === undefined) throw invalid('Send end (an instant) or end_date (a whole day) with start.', 'end', 'end_date');
  // Stryker disable next-line StringLiteral: the fallback names a field only for a PATCH that sends no range field, over a stored range that was checked when written; it cannot fail either check below (a zone change keeps a span's DST shifts balanced)
  const blamed = sentFields(body).at(-1) ?? 'end';
  if (end <= start) throw invalid(`${blamed}: the range must end after it starts.`, blamed);
  if (end > latestEnd(start, zone)) {
    throw invalid(`${blamed}: a range lasts at most ${MAX_TIME_OFF_DAYS} days; send a longer absence as several ranges.`, blamed);
  }
  return { startMs: start, endMs: end };
}
