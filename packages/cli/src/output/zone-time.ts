// Instants as the viewer reads them, and civil dates as plain `YYYY-MM-DD`
// strings. Intl only (no date library), so the agenda's piped path stays light.

const formats = new Map<string, Intl.DateTimeFormat>();

/** True when this runtime knows `zone` as a time zone (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZoneName(zone: string): boolean {
  if (zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formats.set(zone, format);
  }
  return format;
}

function partsOf(instant: number | string, zone: string): Record<string, string> {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant;
  return Object.fromEntries(
    formatIn(zone)
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
}

/** The civil date (`YYYY-MM-DD`) an instant falls on in `zone`. */
export function localDate(instant: number | string, zone: string): string {
  const p = partsOf(instant, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `2026-03-02 10:00 GMT+1`: an instant as a viewer in `zone` reads it, with the zone's short name. */
export function dateTimeIn(instant: number | string, zone: string): string {
  const p = partsOf(instant, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/** The wall-clock time (`HH:MM`, 24-hour) of an instant in `zone`. */
export function localTime(instant: number | string, zone: string): string {
  const p = partsOf(instant, zone);
  return `${p.hour}:${p.minute}`;
}

const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function utcOf(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day));
}

function dateText(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The civil date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  const d = utcOf(date);
  d.setUTCDate(d.getUTCDate() + days);
  return dateText(d);
}

/** The Monday of the week holding `date`: weeks start on Monday, as series weeks do (RFC 5545 WKST=MO). */
export function mondayOf(date: string): string {
  return addDays(date, -((utcOf(date).getUTCDay() + 6) % 7));
}

/** `Mon 7 Dec 2026`. */
export function dayHeading(date: string): string {
  const d = utcOf(date);
  return `${WEEKDAY_NAMES[d.getUTCDay()]} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** `Mon 7`: a day as a narrow column heading. */
export function dayColumn(date: string): string {
  const d = utcOf(date);
  return `${WEEKDAY_NAMES[d.getUTCDay()]} ${d.getUTCDate()}`;
}

/** `Mon 7 Dec 2026 10:00 (Europe/Berlin)`: one instant, said in full. */
export function instantText(instant: number | string, zone: string): string {
  return `${dayHeading(localDate(instant, zone))} ${localTime(instant, zone)} (${zone})`;
}

/** `Mon 7 Dec 2026 10:00–10:30 (Europe/Berlin)`: a meeting's time; the end names its day when it is another. */
export function rangeText(start: number | string, end: number | string, zone: string): string {
  const endDay = localDate(end, zone);
  const endText = endDay === localDate(start, zone) ? localTime(end, zone) : `${dayHeading(endDay)} ${localTime(end, zone)}`;
  return `${dayHeading(localDate(start, zone))} ${localTime(start, zone)}–${endText} (${zone})`;
}
