import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { FIRST_DATE, isTimeZone, LAST_DATE, parseInstant, toTimestamp } from '../src/time.js';

describe('toTimestamp', () => {
  it('writes ISO 8601 UTC with milliseconds', () => {
    expect(toTimestamp(Date.UTC(2026, 0, 5, 9, 0, 0))).toBe('2026-01-05T09:00:00.000Z');
    expect(toTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(toTimestamp(Date.UTC(2026, 11, 31, 23, 59, 59, 7))).toBe('2026-12-31T23:59:59.007Z');
  });

  it('keeps text order equal to time order across a second boundary', () => {
    const earlier = toTimestamp(Date.UTC(2026, 0, 5, 9, 0, 0, 999));
    const later = toTimestamp(Date.UTC(2026, 0, 5, 9, 0, 1, 0));
    expect(earlier < later).toBe(true);
  });
});

describe('parseInstant', () => {
  it('reads a date alone as its UTC midnight and says so', () => {
    expect(parseInstant('2026-01-05')).toEqual({ epochMs: Date.UTC(2026, 0, 5), dateOnly: true });
  });

  it('reads a date-time with Z', () => {
    expect(parseInstant('2026-01-05T09:30:00.250Z')).toEqual({ epochMs: Date.UTC(2026, 0, 5, 9, 30, 0, 250), dateOnly: false });
  });

  it('reads a date-time without an offset as UTC', () => {
    expect(parseInstant('2026-01-05T09:30')).toEqual({ epochMs: Date.UTC(2026, 0, 5, 9, 30), dateOnly: false });
  });

  it('honours an explicit offset inside the Europe/Berlin spring-forward gap day', () => {
    // 2026-03-29: Berlin jumps from 02:00 CET to 03:00 CEST; 03:30+02:00 is 01:30 UTC.
    expect(parseInstant('2026-03-29T03:30:00+02:00')).toEqual({ epochMs: Date.UTC(2026, 2, 29, 1, 30), dateOnly: false });
  });

  it('tells the two fall-back instants of 02:30 in Europe/Berlin apart by their offsets', () => {
    // 2026-10-25: 02:30 happens twice in Berlin, first at +02:00 and then at +01:00.
    expect(parseInstant('2026-10-25T02:30:00+02:00')?.epochMs).toBe(Date.UTC(2026, 9, 25, 0, 30));
    expect(parseInstant('2026-10-25T02:30:00+01:00')?.epochMs).toBe(Date.UTC(2026, 9, 25, 1, 30));
  });

  it('accepts the leap day of a leap year', () => {
    expect(parseInstant('2028-02-29')).toEqual({ epochMs: Date.UTC(2028, 1, 29), dateOnly: true });
  });

  it.each(['garbage', '', '2026-02-30', '2027-02-29', '2026-13-01', '2026-01-05T25:00:00Z', '05/01/2026'])('rejects %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

/** parseInstant as it was before its fast path: luxon's ISO reading, then the range. */
function luxonInstant(text: string): { epochMs: number; dateOnly: boolean } | undefined {
  const parsed = DateTime.fromISO(text, { zone: 'utc' });
  if (!parsed.isValid) return undefined;
  const epochMs = parsed.toMillis();
  const inRange = epochMs >= Date.parse(`${FIRST_DATE}T00:00:00Z`) && epochMs < Date.parse(`${LAST_DATE}T00:00:00Z`) + 86_400_000;
  return inRange ? { epochMs, dateOnly: /^\d{4}-\d{2}-\d{2}$/.test(text) } : undefined;
}

describe('parseInstant: the fast path for YYYY-MM-DDTHH:MM:SS[.sss]Z reads as luxon does', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  // Every field a little past its range, so that impossible dates (31 April, 29 February of a
  // common year, hour 24, month 13) and the range's ends (years 0099, 1899, 9000, 9001) are drawn.
  const utcInstant = fc
    .record({
      year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(99, 100, 999, 1000, 1899, 1900, 2024, 2100, 9000, 9001)),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 24 }),
      minute: fc.integer({ min: 0, max: 60 }),
      second: fc.integer({ min: 0, max: 60 }),
      millis: fc.option(fc.integer({ min: 0, max: 999 })),
    })
    .map(
      (t) =>
        `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}` +
        `${t.millis === null ? '' : `.${pad(t.millis, 3)}`}Z`,
    );

  it('agrees with luxon on generated strings of that shape, valid or not', () => {
    fc.assert(
      fc.property(utcInstant, (text) => {
        expect(parseInstant(text)).toEqual(luxonInstant(text));
      }),
      { numRuns: 20_000, seed: 20261126 },
    );
  });

  it.each([
    '2026-04-31T09:00:00Z',
    '2027-02-29T00:00:00.000Z',
    '2028-02-29T23:59:59.999Z',
    '2026-01-05T24:00:00Z',
    '0099-06-01T00:00:00Z',
    '1899-12-31T23:59:59.999Z',
    '1900-01-01T00:00:00.000Z',
    '9000-12-31T23:59:59.999Z',
    '9001-01-01T00:00:00Z',
  ])('%s as luxon reads it', (text) => {
    expect(parseInstant(text)).toEqual(luxonInstant(text));
  });
});

describe('isTimeZone', () => {
  it.each([
    ['Europe/Berlin', true],
    ['America/New_York', true],
    ['UTC', true],
    ['Mars/Olympus_Mons', false],
    ['', false],
  ])('%j is a time zone: %s', (zone, expected) => {
    expect(isTimeZone(zone)).toBe(expected);
  });
});
