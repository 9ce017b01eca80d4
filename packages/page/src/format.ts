// Dates and times as the visitor's locale writes them (Intl: 12- or
// 24-hour, day and month names and order). Formatters are costly to make,
// so each is made once per locale, zone and kind, up to a bound.

const MAX_FORMATTERS = 512;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, zone: string, kind: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${kind}`;
  let made = formatters.get(key);
  if (!made) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formatters.set(key, made);
  }
  return made;
}

/** "9:00 AM" or "09:00". */
export const timeOf = (instant: string, zone: string, locale: string) =>
  formatter(locale, zone, 'time', { hour: 'numeric', minute: '2-digit' }).format(new Date(instant));

/** How en-US writes a 2-digit month, 2-digit day and numeric year: MM/DD/YYYY. */
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * The civil date (yyyy-mm-dd) an instant falls on in a zone; '' for no
 * instant. A month of times asks this once a time, so it is one cached
 * formatter, not a zoned date object each time (luxon's costs fourteen
 * times as much), and its plain "MM/DD/YYYY" text (formatToParts costs twice
 * as much), read back by its parts only if the text ever reads otherwise.
 */
export function civilDate(instant: string, zone: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return '';
  const made = formatter('en-US', zone, 'civil', { year: 'numeric', month: '2-digit', day: '2-digit' });
  const text = made.format(ms);
  const plain = US_DATE.exec(text);
  if (plain) return `${plain[3]}-${plain[1]}-${plain[2]}`;
  const parts = made.formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}
/** "Wednesday, December 2, 2026" of a civil date. */
export const dayOf = (date: string, locale: string) =>
  formatter(locale, 'UTC', 'day', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** "December 2026". */
export const monthTitle = (month: string, locale: string) =>
  formatter(locale, 'UTC', 'month', { month: 'long', year: 'numeric' }).format(new Date(`${month}-15T12:00:00Z`));

/** Monday to Sunday, short ("Mon") and long ("Monday"). */
export function weekdays(locale: string): { short: string; long: string }[] {
  // 2026-11-30 is a Monday.
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(Date.UTC(2026, 10, 30 + i, 12));
    return {
      short: formatter(locale, 'UTC', 'wd-short', { weekday: 'short' }).format(day),
      long: formatter(locale, 'UTC', 'wd-long', { weekday: 'long' }).format(day),
    };
  });
}

/** A meeting in one zone: "Wednesday, December 2, 2026, 9:00 – 9:30 AM". */
export const meetingIn = (start: string, end: string, zone: string, locale: string) =>
  formatter(locale, zone, 'span', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).formatRange(new Date(start), new Date(end));

/** The IANA zones a visitor may pick, as this runtime knows them (CLDR's, through ICU). */
export const ZONES: readonly string[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort();
const KNOWN = new Set(ZONES);

/** An IANA name's shape: `Area/Place` or `Area/Region/Place`, no longer than any real one. */
const ZONE_NAME = /^[A-Za-z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+){1,2}$/;

/**
 * A zone the page may show times in: one of ZONES, or another IANA name
 * this runtime knows. ICU lists one name per zone, often not the current
 * one (`Asia/Katmandu`, `Asia/Calcutta`, `Europe/Kiev`), while browsers and
 * the API take the current names (`Asia/Kathmandu`): those must not fall
 * back to the host's zone.
 */
export function isZone(zone: string | undefined): zone is string {
  if (zone === undefined) return false;
  if (KNOWN.has(zone)) return true;
  if (zone.length > 64 || !ZONE_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The picker's zones: ZONES, with the one shown among them when ICU lists it under another name. */
export const zonesWith = (zone: string): readonly string[] => (KNOWN.has(zone) ? ZONES : [...ZONES, zone].sort());
