/**
 * The name a mail gives a time zone at an instant (docs/mail.md, "Zone
 * names"): one rule for every zone. The zone's abbreviation where English
 * has a common one (EST, PDT, CET, BST, AEST, IST, SAST...), else its offset
 * from UTC (`GMT+9`, `GMT+5:45`).
 *
 * CLDR names a zone with letters only in the English of the region that
 * uses it: `en-US` says EST but `GMT+1` for Berlin, `en-GB` says CET but
 * `GMT-5` for New York. So the locales below are asked in a fixed order and
 * the first that names the zone with letters wins; when none does, the
 * offset, which every locale writes the same way, is the answer. The order
 * only matters where two regions name one zone differently (none of the
 * IANA zones does today), and it is fixed, so a mail reads the same from
 * every host whatever its own locale.
 *
 * One formatter per zone and locale is kept: building an
 * Intl.DateTimeFormat was half the cost of composing a mail. Zones come from
 * the IANA list (a few hundred), so the cache is bounded by it.
 */
// In today's CLDR en-CA also names every US zone and en-NZ every Australian one; en-US and en-AU stay so
// that a change to the Canadian or New Zealand data costs nothing. Each other entry is the only one naming
// some zone (zone-abbreviation.test.ts).
const LOCALES = ['en-US', 'en-GB', 'en-CA', 'en-AU', 'en-NZ', 'en-IN', 'en-IE', 'en-ZA'] as const;

/** `GMT+1`, `GMT-3:30`, `GMT+0`: an offset, as English writes one. Bare `GMT` and `UTC` are names. */
const OFFSET = /^GMT[+-]/;

const formatters = new Map<string, readonly Intl.DateTimeFormat[]>();

function formattersOf(zone: string): readonly Intl.DateTimeFormat[] {
  let found = formatters.get(zone);
  // Stryker disable next-line ConditionalExpression: building the formatters every time names the zone alike; the cache only saves the cost.
  if (!found) {
    found = LOCALES.map((locale) => new Intl.DateTimeFormat(locale, { timeZoneName: 'short', timeZone: zone }));
    formatters.set(zone, found);
  }
  return found;
}

// A format asked for `timeZoneName` always has that part.
const nameAt = (format: Intl.DateTimeFormat, instantMs: number) =>
  format.formatToParts(instantMs).find((part) => part.type === 'timeZoneName')!.value;

/** The zone's name at that instant: its English abbreviation, else its offset (`GMT+9`). */
export function zoneAbbreviation(instantMs: number, zone: string): string {
  const all = formattersOf(zone);
  for (const format of all) {
    const name = nameAt(format, instantMs);
    if (!OFFSET.test(name)) return name;
  }
  // Every locale wrote the offset, and all write it alike: the first one's.
  return nameAt(all[0]!, instantMs);
}
