import { DateTime } from 'luxon';

/**
 * Instants are stored and shown as ISO 8601 UTC with milliseconds
 * (`2026-01-05T09:00:00.000Z`, docs/api/overview.md "Instants, dates and zones"). The fixed width keeps
 * text order equal to time order, which the storage relies on for ranges and
 * keyset cursors on both SQLite and PostgreSQL.
 */
export function toTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dates every instant and civil date must fall between. Inside them a
 * timestamp has the fixed width the storage orders by (a year past 9999
 * would print as `+010000-…`), and every computation a date goes through
 * (a series' 42 weeks, a slot range, a horizon) stays far from the limits of
 * a JavaScript date.
 */
export const FIRST_DATE = '1900-01-01';
export const LAST_DATE = '9000-12-31';
const FIRST_MS = Date.parse(`${FIRST_DATE}T00:00:00Z`);
const AFTER_LAST_MS = Date.parse(`${LAST_DATE}T00:00:00Z`) + 86_400_000;

/**
 * Parses an ISO 8601 instant or date. A date alone is its UTC midnight; a
 * date-time without an offset is read as UTC. Undefined when not ISO 8601,
 * or outside FIRST_DATE..LAST_DATE.
 */
export function parseInstant(text: string): { epochMs: number; dateOnly: boolean } | undefined {
  const fast = utcInstantMs(text);
  if (fast !== undefined) return fast >= FIRST_MS && fast < AFTER_LAST_MS ? { epochMs: fast, dateOnly: false } : undefined;
  const parsed = DateTime.fromISO(text, { zone: 'utc' });
  if (!parsed.isValid) return undefined;
  const epochMs = parsed.toMillis();
  if (!(epochMs >= FIRST_MS && epochMs < AFTER_LAST_MS)) return undefined;
  return { epochMs, dateOnly: DATE_ONLY.test(text) };
}

const UTC_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?Z$/;

/**
 * The instant of a valid `YYYY-MM-DDTHH:MM:SS[.sss]Z`, the form the API
 * writes and most callers send back; undefined for anything else, which
 * parseInstant leaves to luxon. Luxon's ISO parser costs about fifteen times
 * as much, and a create parses its start several times (README
 * "Benchmarks"). test/time.test.ts checks that both agree on every string
 * of this shape, impossible dates included.
 */
function utcInstantMs(text: string): number | undefined {
  const m = UTC_INSTANT.exec(text);
  if (m === null) return undefined;
  const field = (i: number) => Number(m[i]);
  const year = field(1);
  const month = field(2);
  const day = field(3);
  const hour = field(4);
  const minute = field(5);
  const second = field(6);
  // Date.UTC reads years 0 to 99 as 1900 to 1999, and carries a 13th month, a 60th minute or
  // second, an hour past 23 or a day past the month's end into the next. Luxon refuses most of
  // those, so they go its way: the first here, the last two by the day check below.
  if (year < 1000 || month < 1 || month > 12 || minute > 59 || second > 59) return undefined;
  const epochMs = Date.UTC(year, month - 1, day, hour, minute, second, m[7] === undefined ? 0 : field(7));
  return new Date(epochMs).getUTCDate() === day ? epochMs : undefined;
}

/**
 * True when a date-time names its own offset (`Z`, `+01:00`, `-0500`, `+01`).
 * docs/api/overview.md "Instants, dates and zones": an instant the API receives must, since
 * reading `2026-12-09T11:00` as UTC silently books the wrong hour for anyone
 * not in UTC. (A bare date is not a date-time and is judged by its own rule.)
 */
export function namesItsOffset(text: string): boolean {
  return text.includes('T') && /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(text);
}

/** True when `zone` is an IANA time zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  return zone.length > 0 && DateTime.local().setZone(zone).isValid;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
