import { describe, expect, it } from 'vitest';
import { isTimeZone, parseInstant, toTimestamp } from '../src/time.js';

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
