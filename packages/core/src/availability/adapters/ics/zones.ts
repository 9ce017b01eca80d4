import windowsZones from 'cldr-core/supplemental/windowsZones.json' with { type: 'json' };
import ICAL from 'ical.js';
import { isTimeZone } from '../../../time.js';

const known = new Map<string, string | undefined>();
/** Distinct TZIDs remembered; a hostile feed may name many, and forgetting costs only a lookup. */
const MAX_KNOWN = 1000;

/**
 * The IANA zone a TZID names, if it names one: `Europe/Berlin`, or the
 * Area/Location ending a prefixed TZID (`/mozilla.org/20070129_1/Europe/Berlin`,
 * `/citadel.org/20190914_1/America/New_York`). Only Area/Location names and
 * UTC count: a bare `EST` or `CET` in a feed usually means the producer's own
 * definition, which may carry daylight time that IANA's fixed-offset zone of
 * that name does not.
 */
export function ianaZoneOf(tzid: string | undefined): string | undefined {
  if (!tzid) return undefined;
  // Stryker disable next-line ConditionalExpression: the cache only saves a lookup; without it the same name is found again
  if (known.has(tzid)) return known.get(tzid);
  const parts = tzid.split('/').filter((part) => part.length > 0);
  let found: string | undefined;
  // Longest first: America/Argentina/Buenos_Aires before Argentina/Buenos_Aires.
  // Stryker disable next-line MethodExpression: no IANA name has more than three parts, so starting longer finds the same name
  for (let take = Math.min(3, parts.length); take >= 1 && !found; take--) {
    const candidate = parts.slice(-take).join('/');
    // Stryker disable next-line Regex: without '^': no zone name lacking '/' ends in UTC or GMT but those two (the one without '$' is killed: GMT0)
    if ((candidate.includes('/') || /^(UTC|GMT)$/i.test(candidate)) && isTimeZone(candidate)) found = candidate;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: when the cache is cleared bounds its memory only; a forgotten name is looked up again
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(tzid, found);
  return found;
}

/**
 * Windows zone IDs (Outlook's and Exchange's `Pacific Standard Time`) and the
 * IANA zone CLDR's windowsZones table gives for each, as Windows itself maps
 * them: the row for territory 001. Read from Unicode's own CLDR data (the
 * cldr-core package), which follows each Windows and CLDR release.
 */
const WINDOWS_ZONES = new Map(
  windowsZones.supplemental.windowsZones.mapTimezones
    .map(({ mapZone }) => mapZone)
    .filter((zone) => zone._territory === '001')
    .map((zone) => [zone._other.toLowerCase(), zone._type] as const),
);

/**
 * The IANA zone a Windows zone ID names, if it names one. Case and the stray
 * trailing `:` some Exchange versions write are not part of the name.
 */
export function windowsZoneOf(tzid: string | undefined): string | undefined {
  if (!tzid) return undefined;
  const zone = WINDOWS_ZONES.get(tzid.trim().replace(/:+$/, '').trim().toLowerCase());
  // Stryker disable next-line ConditionalExpression: guards against a CLDR zone this runtime's ICU does not know; none today
  return zone && isTimeZone(zone) ? zone : undefined;
}

/** A zone observance (STANDARD or DAYLIGHT) of a feed's VTIMEZONE. */
function observancesOf(vtimezone: ICAL.Component): ICAL.Component[] {
  // Stryker disable next-line StringLiteral: getAllSubcomponents('') answers every subcomponent, and a VTIMEZONE holds only STANDARD and DAYLIGHT (RFC 5545 §3.6.5)
  return [...vtimezone.getAllSubcomponents('standard'), ...vtimezone.getAllSubcomponents('daylight')];
}

/**
 * Whether every onset and offset of a feed's VTIMEZONE decodes. One that does
 * not is left out, and its TZID is read as an IANA name or in the host's zone.
 */
export function readableTimezone(vtimezone: ICAL.Component): boolean {
  try {
    if (!vtimezone.getFirstPropertyValue('tzid')) return false;
    for (const observance of observancesOf(vtimezone)) {
      for (const name of ['dtstart', 'tzoffsetfrom', 'tzoffsetto', 'rrule', 'rdate']) {
        for (const property of observance.getAllProperties(name)) property.getValues();
      }
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes a feed's own VTIMEZONE readable by ical.js where producers (iCalcreator
 * among them) list each onset with RDATE and no RRULE: ical.js then skips the
 * onset written in DTSTART, so it is added as an RDATE too.
 */
export function repairTimezone(vtimezone: ICAL.Component): void {
  for (const observance of observancesOf(vtimezone)) {
    const onset = observance.getFirstPropertyValue('dtstart');
    if (!onset || observance.hasProperty('rrule')) continue;
    const listed = observance.getAllProperties('rdate').some((p) => p.getValues().some((v) => String(v) === String(onset)));
    if (listed) continue;
    const rdate = new ICAL.Property('rdate', observance);
    rdate.setValue(onset);
    observance.addProperty(rdate);
  }
}

interface FirstOnset {
  /** The onset's wall clock, read as if UTC. */
  readonly wallMs: number;
  /** TZOFFSETFROM of that onset: the offset in force before it, in seconds. */
  readonly offsetBefore: number;
}

const firstOnsets = new WeakMap<ICAL.Timezone, FirstOnset | null>();

/**
 * RFC 5545 §3.6.5: before a zone's first onset, the offset is that onset's
 * TZOFFSETFROM. ical.js answers 0 there, so times early in a feed that
 * defines only recent onsets would be read as UTC.
 */
export function offsetBeforeFirstOnset(zone: ICAL.Timezone, wallMs: number): number | undefined {
  let first = firstOnsets.get(zone);
  // Stryker disable next-line ConditionalExpression: the cache only saves a walk over the observances; the answer is the same
  if (first === undefined) {
    first = null;
    for (const observance of zone.component ? observancesOf(zone.component) : []) {
      const onset = observance.getFirstPropertyValue('dtstart') as ICAL.Time | null;
      const from = observance.getFirstPropertyValue('tzoffsetfrom') as ICAL.UtcOffset | null;
      if (!onset || !from) continue;
      const onsetMs = Date.UTC(onset.year, onset.month - 1, onset.day, onset.hour, onset.minute, onset.second);
      // Stryker disable next-line EqualityOperator: two onsets at one wall clock have no order in RFC 5545; either one's TZOFFSETFROM is a reading
      if (!first || onsetMs < first.wallMs) first = { wallMs: onsetMs, offsetBefore: from.toSeconds() };
    }
    firstOnsets.set(zone, first);
  }
  return first && wallMs < first.wallMs ? first.offsetBefore : undefined;
}
