import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneAbbreviation } from '../src/notifications/zone-abbreviation.js';

// A mail writes its times' zone as luxon's `ZZZZ` did ("(CET)"), through one
// formatter kept per zone: the two must agree for every zone and instant.

const ZONES = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
const luxonName = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).setLocale('en-GB').toFormat('ZZZZ');

describe('zoneAbbreviation', () => {
  it('writes what luxon writes, for any IANA zone at any instant from 1900 to 2100', () => {
    const instant = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, ms) => {
        expect(zoneAbbreviation(ms, zone)).toBe(luxonName(ms, zone));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['Europe/Berlin', '2026-01-15T12:00:00Z', 'CET'],
    ['Europe/Berlin', '2026-07-15T12:00:00Z', 'CEST'],
    ['America/New_York', '2026-03-08T06:59:59Z', 'GMT-5'],
    ['America/New_York', '2026-03-08T07:00:00Z', 'GMT-4'],
    ['Asia/Tokyo', '2026-07-15T12:00:00Z', 'GMT+9'],
    ['UTC', '2026-07-15T12:00:00Z', 'UTC'],
  ])('%s at %s is %s', (zone, instant, name) => {
    expect(zoneAbbreviation(Date.parse(instant), zone)).toBe(name);
  });
});
