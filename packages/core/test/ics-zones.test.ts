import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import {
  ianaZoneOf,
  offsetBeforeFirstOnset,
  readableTimezone,
  repairTimezone,
  windowsZoneOf,
} from '../src/availability/adapters/ics/zones.js';

// The zone helpers of the feed reader, one behaviour each (issue 30).

const vtimezone = (...lines: string[]) =>
  new ICAL.Component(ICAL.parse(['BEGIN:VTIMEZONE', ...lines, 'END:VTIMEZONE'].join('\r\n')) as unknown[]);
const observance = (kind: 'STANDARD' | 'DAYLIGHT', ...lines: string[]) => [`BEGIN:${kind}`, ...lines, `END:${kind}`];
/** A European zone as Outlook-style feeds define it: summer time from 2026-03-29, winter time from 2026-10-25. */
const CUSTOM = [
  'TZID:Custom European Time',
  ...observance('STANDARD', 'DTSTART:20261025T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100'),
  ...observance('DAYLIGHT', 'DTSTART:20260329T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200'),
];
const wall = (iso: string) => Date.parse(`${iso}Z`);
const rdatesOf = (zone: ICAL.Component, kind: string) =>
  zone
    .getFirstSubcomponent(kind)
    ?.getAllProperties('rdate')
    .flatMap((p) => p.getValues().map(String));

describe('ianaZoneOf', () => {
  it('reads an IANA name with a trailing slash as that name', () => {
    expect(ianaZoneOf('Europe/Berlin/')).toBe('Europe/Berlin');
  });

  it('reads a bare GMT0 as the producer’s own zone, like a bare EST', () => {
    expect(ianaZoneOf('GMT0')).toBeUndefined();
    expect(ianaZoneOf('GMT')).toBe('GMT');
  });
});

describe('windowsZoneOf', () => {
  it('drops only colons that end the name: one inside it is no Windows zone', () => {
    expect(windowsZoneOf('Pacific Standard Time:')).toBe('America/Los_Angeles');
    expect(windowsZoneOf('Pacific: Standard Time')).toBeUndefined();
  });
});

describe('readableTimezone', () => {
  it('a VTIMEZONE whose every onset and offset decodes is readable', () => {
    expect(readableTimezone(vtimezone(...CUSTOM))).toBe(true);
  });

  it('a VTIMEZONE without a TZID is not', () => {
    expect(readableTimezone(vtimezone('X-LIC-LOCATION:Europe/Berlin', ...CUSTOM.slice(1)))).toBe(false);
  });

  it.each([
    ['DTSTART', 'DTSTART:abc'],
    ['TZOFFSETFROM', 'TZOFFSETFROM:abc'],
    ['TZOFFSETTO', 'TZOFFSETTO:abc'],
    ['RRULE', 'RRULE:FREQ=YEARLY;UNTIL=abc'],
    ['RDATE', 'RDATE:abc'],
  ])('one whose %s does not decode is not', (name, line) => {
    const broken = observance(
      'STANDARD',
      ...['DTSTART:20261025T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100'].filter((l) => !l.startsWith(`${name}:`)),
      line,
    );
    expect(readableTimezone(vtimezone('TZID:Broken', ...broken))).toBe(false);
  });

  it('a broken property the reader never reads leaves it readable', () => {
    expect(readableTimezone(vtimezone(...CUSTOM.slice(0, 5), 'X-NOTE;VALUE=DATE-TIME:abc', ...CUSTOM.slice(5)))).toBe(true);
  });

  it('nor one whose DAYLIGHT onset does not decode', () => {
    const broken = observance('DAYLIGHT', 'DTSTART:abc', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200');
    expect(readableTimezone(vtimezone(...CUSTOM.slice(0, 6), ...broken))).toBe(false);
  });
});

describe('repairTimezone (onsets listed by RDATE alone)', () => {
  it('adds the DTSTART onset as an RDATE when no RDATE lists it', () => {
    const zone = vtimezone(
      'TZID:Z',
      ...observance('STANDARD', 'DTSTART:20261025T030000', 'RDATE:20271031T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100'),
    );
    repairTimezone(zone);
    expect(rdatesOf(zone, 'standard')).toEqual(['2027-10-31T03:00:00', '2026-10-25T03:00:00']);
  });

  it('leaves an observance alone when one of its RDATE lists already holds the onset', () => {
    const zone = vtimezone(
      'TZID:Z',
      ...observance(
        'STANDARD',
        'DTSTART:20261025T030000',
        'RDATE:20251026T030000',
        'RDATE:20271031T030000,20261025T030000',
        'TZOFFSETFROM:+0200',
        'TZOFFSETTO:+0100',
      ),
    );
    repairTimezone(zone);
    expect(rdatesOf(zone, 'standard')).toEqual(['2025-10-26T03:00:00', '2027-10-31T03:00:00', '2026-10-25T03:00:00']);
  });

  it('leaves an observance with an RRULE alone: ical.js counts its DTSTART', () => {
    const zone = vtimezone(
      'TZID:Z',
      ...observance(
        'STANDARD',
        'DTSTART:20261025T030000',
        'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
        'TZOFFSETFROM:+0200',
        'TZOFFSETTO:+0100',
      ),
    );
    repairTimezone(zone);
    expect(rdatesOf(zone, 'standard')).toEqual([]);
  });

  it('leaves an observance without an onset alone', () => {
    const zone = vtimezone('TZID:Z', ...observance('STANDARD', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100'));
    repairTimezone(zone);
    expect(rdatesOf(zone, 'standard')).toEqual([]);
  });
});

describe('offsetBeforeFirstOnset (RFC 5545 §3.6.5)', () => {
  // A fresh zone per call: the first onset is remembered per zone object.
  const zone = () => new ICAL.Timezone(vtimezone(...CUSTOM));

  it('before the earliest onset, whichever observance holds it, is that onset’s TZOFFSETFROM', () => {
    expect(offsetBeforeFirstOnset(zone(), wall('2026-01-15T12:00:00'))).toBe(3600);
    expect(offsetBeforeFirstOnset(zone(), wall('2026-03-29T01:59:59'))).toBe(3600);
  });

  it('from the earliest onset on, it answers nothing: the zone’s own rules apply', () => {
    expect(offsetBeforeFirstOnset(zone(), wall('2026-03-29T02:00:00'))).toBeUndefined();
    expect(offsetBeforeFirstOnset(zone(), wall('2026-04-15T12:00:00'))).toBeUndefined();
  });

  it('an observance without TZOFFSETFROM or DTSTART is passed over', () => {
    const partial = new ICAL.Timezone(
      vtimezone(
        'TZID:Partial',
        ...observance('STANDARD', 'DTSTART:20251026T030000', 'TZOFFSETTO:+0100'),
        ...observance('DAYLIGHT', 'TZOFFSETFROM:+0300', 'TZOFFSETTO:+0200'),
        ...observance('DAYLIGHT', 'DTSTART:20260329T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200'),
      ),
    );
    expect(offsetBeforeFirstOnset(partial, wall('2026-01-15T12:00:00'))).toBe(3600);
  });

  it('a zone without a definition answers nothing', () => {
    expect(offsetBeforeFirstOnset(new ICAL.Timezone({ tzid: 'Bare' }), wall('2026-01-15T12:00:00'))).toBeUndefined();
  });
});
