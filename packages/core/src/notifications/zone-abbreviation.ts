/**
 * The short name of a time zone at an instant, in English ("CET", "CEST",
 * "GMT+9"), as luxon's `ZZZZ` writes it. luxon builds a new
 * Intl.DateTimeFormat for every call, which was half of composing a mail;
 * one formatter per zone is kept here instead. Zones come from the IANA list
 * (a few hundred), so the cache is bounded by it.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function zoneAbbreviation(instantMs: number, zone: string): string {
  let format = formatters.get(zone);
  if (!format) {
    // The same options luxon passes, so the name is the same one.
    format = new Intl.DateTimeFormat('en-GB', {
      timeZoneName: 'short',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
    });
    formatters.set(zone, format);
  }
  return format.formatToParts(instantMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
}
