import { DateTime } from 'luxon';
import { DAY_MS } from '../time.js';

/**
 * An instant as a person in `zone` reads it, with nothing left to guess:
 * `Tue 2026-03-10 14:00 Europe/Berlin (UTC+01:00)`. The weekday and the date
 * are spelled out and never relative ("tomorrow" depends on when it is read),
 * the zone is named and its offset at that instant given, so a model that
 * passes the time on cannot shift it by an hour across a DST change.
 */
export function localTime(epochMs: number, zone: string): string {
  const at = DateTime.fromMillis(epochMs, { zone, locale: 'en-US' });
  // An unknown zone: fall back to UTC, named as such, rather than throw while showing a time.
  const shown = at.isValid ? at : DateTime.fromMillis(epochMs, { zone: 'UTC', locale: 'en-US' });
  return `${shown.toFormat('ccc yyyy-LL-dd HH:mm')} ${shown.zoneName} (UTC${shown.toFormat('ZZ')})`;
}

/** The wall-clock time of day in `zone`, in minutes after midnight. */
export function minuteOfDay(epochMs: number, zone: string): number {
  const at = DateTime.fromMillis(epochMs, { zone });
  return at.hour * 60 + at.minute;
}

/** The civil date (`YYYY-MM-DD`) of an instant in `zone`. */
export function dateIn(epochMs: number, zone: string): string {
  return DateTime.fromMillis(epochMs, { zone }).toISODate() as string;
}

/** The instant a civil date begins in `zone` (local midnight, or the first instant after it on a DST day). */
export function startOfDate(date: string, zone: string): number {
  return DateTime.fromISO(date, { zone }).startOf('day').toMillis();
}

/** A civil date plus `days` (negative: before): calendar arithmetic, the same in every zone. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
