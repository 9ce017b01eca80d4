import { describe, expect, it } from 'vitest';
import { addDays, civilDateOf, formatCivilDate, wallClockToInstant, weekdayOf } from '../src/wall-clock.js';

/** The instant a local time names, shown as ISO 8601 UTC. */
const instant = (date: string, time: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return new Date(wallClockToInstant({ year, month, day }, hour, minute, zone)).toISOString();
};

describe('wallClockToInstant', () => {
  describe('spring-forward gap moves forward', () => {
    it('Europe/Berlin 2026-03-29 02:30 (gap 02:00–03:00) is 03:30 CEST, 01:30Z', () => {
      expect(instant('2026-03-29', '02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    });

    it('Europe/Berlin 02:00, the first minute of the gap, is 03:00 CEST, 01:00Z', () => {
      expect(instant('2026-03-29', '02:00', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
      expect(instant('2026-03-29', '03:00', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
    });

    it('America/New_York 2026-03-08 02:30 is 03:30 EDT, 07:30Z', () => {
      expect(instant('2026-03-08', '02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    });

    it('Australia/Lord_Howe 2026-10-04 02:15, in a 30-minute gap, is 02:45 +11:00, 15:45Z the day before', () => {
      expect(instant('2026-10-04', '02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:45:00.000Z');
    });

    it('Pacific/Apia 2011-12-30, a civil day that was skipped, moves forward a whole day', () => {
      expect(instant('2011-12-30', '12:00', 'Pacific/Apia')).toBe('2011-12-30T22:00:00.000Z');
    });
  });

  describe('fall-back takes the first instant', () => {
    it('Europe/Berlin 2026-10-25 02:30 happens at +02:00 and +01:00; the first is 00:30Z', () => {
      expect(instant('2026-10-25', '02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    });

    it('America/New_York 2026-11-01 01:30 happens at -04:00 and -05:00; the first is 05:30Z', () => {
      expect(instant('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    });

    it('Australia/Lord_Howe 2026-04-05 01:45, in a 30-minute overlap, is the +11:00 reading, 14:45Z the day before', () => {
      expect(instant('2026-04-05', '01:45', 'Australia/Lord_Howe')).toBe('2026-04-04T14:45:00.000Z');
    });

    it('Europe/Berlin 03:00 after the overlap exists once, at +01:00', () => {
      expect(instant('2026-10-25', '03:00', 'Europe/Berlin')).toBe('2026-10-25T02:00:00.000Z');
    });
  });

  describe('ordinary times', () => {
    it('reads Asia/Kolkata, a +05:30 zone, with its half hour', () => {
      expect(instant('2026-03-02', '09:00', 'Asia/Kolkata')).toBe('2026-03-02T03:30:00.000Z');
    });

    it('reads Asia/Kathmandu, a +05:45 zone', () => {
      expect(instant('2026-03-02', '09:00', 'Asia/Kathmandu')).toBe('2026-03-02T03:15:00.000Z');
    });

    it('reads Europe/Berlin in winter at +01:00 and in summer at +02:00', () => {
      expect(instant('2026-01-14', '09:00', 'Europe/Berlin')).toBe('2026-01-14T08:00:00.000Z');
      expect(instant('2026-07-15', '09:00', 'Europe/Berlin')).toBe('2026-07-15T07:00:00.000Z');
    });

    it('reads UTC as it is, midnight included', () => {
      expect(instant('2026-03-02', '00:00', 'UTC')).toBe('2026-03-02T00:00:00.000Z');
      expect(instant('2026-12-31', '23:59', 'UTC')).toBe('2026-12-31T23:59:00.000Z');
    });

    it('reads a time just after a change that falls inside a quarter hour with the offset after it (Europe/Dublin 1916-05-21 03:01 is 02:26:21Z)', () => {
      // Dublin went from -00:25:21 to +00:34:39 at 02:25:21Z: local 02:00 became
      // 03:00. Offsets are remembered per quarter hour, but not for the quarter
      // holding a change, whose start (02:15Z) still had the old offset.
      expect(instant('1916-05-21', '03:01', 'Europe/Dublin')).toBe('1916-05-21T02:26:21.000Z');
    });

    it('reads a local midnight that falls on the previous UTC day', () => {
      expect(instant('2026-01-01', '00:00', 'Pacific/Kiritimati')).toBe('2025-12-31T10:00:00.000Z');
    });
  });
});

describe('civilDateOf', () => {
  it('gives the date the instant falls on in the zone, not in UTC', () => {
    const instantMs = Date.parse('2026-03-01T23:30:00Z');
    expect(formatCivilDate(civilDateOf(instantMs, 'UTC'))).toBe('2026-03-01');
    expect(formatCivilDate(civilDateOf(instantMs, 'Europe/Berlin'))).toBe('2026-03-02');
    expect(formatCivilDate(civilDateOf(instantMs, 'America/New_York'))).toBe('2026-03-01');
  });
});

describe('formatCivilDate', () => {
  it.each([
    [{ year: 2026, month: 3, day: 2 }, '2026-03-02'],
    [{ year: 2026, month: 12, day: 31 }, '2026-12-31'],
    // YYYY-MM-DD has four digits of year, whatever the year.
    [{ year: 999, month: 1, day: 5 }, '0999-01-05'],
  ])('writes %o as %s', (date, expected) => {
    expect(formatCivilDate(date)).toBe(expected);
  });
});

describe('weekdayOf', () => {
  it.each([
    ['1970-01-01', 'thu'],
    ['2026-03-01', 'sun'],
    ['2026-03-02', 'mon'],
    ['2026-03-07', 'sat'],
    ['2026-02-28', 'sat'],
    ['2028-02-29', 'tue'],
    ['1969-12-31', 'wed'],
    ['2026-12-31', 'thu'],
    ['2027-01-01', 'fri'],
  ])('%s is a %s', (date, weekday) => {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    expect(weekdayOf({ year, month, day })).toBe(weekday);
  });
});

describe('addDays', () => {
  const added = (date: string, days: number) => {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    return formatCivilDate(addDays({ year, month, day }, days));
  };

  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-03-02', 0, '2026-03-02'],
    ['2026-03-28', 2, '2026-03-30'],
    ['2026-12-25', 10, '2027-01-04'],
    ['2026-01-05', -370, '2024-12-31'],
  ])('%s plus %i days is %s', (date, days, expected) => {
    expect(added(date, days)).toBe(expected);
  });
});
