import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zoneAbbreviation } from '../src/notifications/zone-abbreviation.js';

// One rule for every zone a mail names (docs/mail.md, "Zone names"): the
// English abbreviation where the zone has one, else the offset from UTC.
// Issue 30 item 10: Berlin read `CET` but New York `GMT-5`, because only
// British English was asked.

const ZONES = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
/** What the offset form looks like, as Intl writes it: `GMT+9`, `GMT-3:30`, and local mean time before standard time, `GMT+5:31:40`. */
const OFFSET_FORM = /^GMT[+-]\d{1,2}(?::\d{2}){0,2}$/;
const LETTERS = /^[A-Z]{2,5}$/;

describe('zoneAbbreviation', () => {
  it('is an abbreviation or an offset for any IANA zone at any instant from 1900 to 2100, and the offset is the right one', () => {
    const instant = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, ms) => {
        const name = zoneAbbreviation(ms, zone);
        expect(LETTERS.test(name) || OFFSET_FORM.test(name) || name === 'GMT+0').toBe(true);
        if (OFFSET_FORM.test(name)) {
          const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
            .formatToParts(ms)
            .find((p) => p.type === 'timeZoneName')!.value;
          expect(name).toBe(offset);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it.each([
    // Each zone named by the English of the region that uses it.
    ['Europe/Berlin', '2026-01-15T12:00:00Z', 'CET'],
    ['Europe/Berlin', '2026-07-15T12:00:00Z', 'CEST'],
    ['America/New_York', '2026-03-08T06:59:59Z', 'EST'],
    ['America/New_York', '2026-03-08T07:00:00Z', 'EDT'],
    ['America/Los_Angeles', '2026-07-15T12:00:00Z', 'PDT'],
    ['Pacific/Honolulu', '2026-07-15T12:00:00Z', 'HST'],
    ['America/St_Johns', '2026-01-15T12:00:00Z', 'NST'],
    ['Europe/London', '2026-01-15T12:00:00Z', 'GMT'],
    ['Europe/London', '2026-07-15T12:00:00Z', 'BST'],
    ['Europe/Lisbon', '2026-01-15T12:00:00Z', 'WET'],
    ['Europe/Dublin', '2026-07-15T12:00:00Z', 'IST'],
    ['Asia/Kolkata', '2026-07-15T12:00:00Z', 'IST'],
    ['Australia/Sydney', '2026-01-15T12:00:00Z', 'AEDT'],
    ['Pacific/Auckland', '2026-07-15T12:00:00Z', 'NZST'],
    ['Africa/Johannesburg', '2026-07-15T12:00:00Z', 'SAST'],
    // Each of these only one locale of the list names: en-ZA, en-NZ, en-CA.
    ['Africa/Addis_Ababa', '2026-07-15T12:00:00Z', 'EAT'],
    ['Pacific/Chatham', '2026-01-15T12:00:00Z', 'CHADT'],
    ['America/Miquelon', '2026-01-15T12:00:00Z', 'PMST'],
    // No common English abbreviation: the offset.
    ['Asia/Tokyo', '2026-07-15T12:00:00Z', 'GMT+9'],
    ['Asia/Kathmandu', '2026-07-15T12:00:00Z', 'GMT+5:45'],
    ['America/Sao_Paulo', '2026-07-15T12:00:00Z', 'GMT-3'],
    ['UTC', '2026-07-15T12:00:00Z', 'UTC'],
  ])('%s at %s is %s', (zone, instant, name) => {
    expect(zoneAbbreviation(Date.parse(instant), zone)).toBe(name);
  });
});
