import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dateIn, dayWindow, localDate, MONTHS_AHEAD, monthOf, monthQueries, shiftMonth, slotsByDay, weeksOf } from '../src/month.js';

// month.ts: the month and day a visitor looks at, in the visitor's zone.

const BERLIN = 'Europe/Berlin';
const NOW = Date.parse('2026-03-15T12:00:00.000Z');
const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

describe('monthOf', () => {
  it("is this month in the zone when none is asked, from its first local midnight to the next month's", () => {
    // Berlin moves to summer time on 29 March: April begins at 22:00 UTC.
    expect(monthOf(undefined, BERLIN, NOW)).toEqual({
      month: '2026-03',
      startMs: at('2026-02-28T23:00:00.000Z'),
      endMs: at('2026-03-31T22:00:00.000Z'),
    });
    expect(monthOf(undefined, 'UTC', NOW)).toEqual({
      month: '2026-03',
      startMs: at('2026-03-01T00:00:00Z'),
      endMs: at('2026-04-01T00:00:00Z'),
    });
  });

  it("reads this month in the visitor's zone: 22:30 UTC on 31 March is already April in Berlin", () => {
    const late = at('2026-03-31T22:30:00.000Z');
    expect(monthOf(undefined, BERLIN, late).month).toBe('2026-04');
    expect(monthOf(undefined, 'UTC', late).month).toBe('2026-03');
    expect(monthOf(undefined, 'America/Los_Angeles', at('2026-04-01T06:00:00Z')).month).toBe('2026-03');
  });

  it('takes a month asked for from this one to MONTHS_AHEAD ahead', () => {
    expect(MONTHS_AHEAD).toBe(24);
    expect(monthOf('2026-03', BERLIN, NOW).month).toBe('2026-03');
    expect(monthOf('2026-11', BERLIN, NOW)).toEqual({
      month: '2026-11',
      startMs: at('2026-10-31T23:00:00.000Z'),
      endMs: at('2026-11-30T23:00:00.000Z'),
    });
    expect(monthOf('2028-03', BERLIN, NOW).month).toBe('2028-03');
  });

  it('holds a month before this one to this one, and one past the horizon to the last', () => {
    expect(monthOf('2026-02', BERLIN, NOW)).toEqual(monthOf(undefined, BERLIN, NOW));
    expect(monthOf('1999-01', BERLIN, NOW).month).toBe('2026-03');
    expect(monthOf('2028-04', BERLIN, NOW)).toEqual(monthOf('2028-03', BERLIN, NOW));
    expect(monthOf('9999-12', BERLIN, NOW).month).toBe('2028-03');
  });

  it('is this month for anything that is not a month', () => {
    for (const asked of ['', '2026-13', '2026-00', '2026-3', '26-03', '2026-03-01', ' 2026-04', '2026-04 ', 'april']) {
      expect(monthOf(asked, BERLIN, NOW).month).toBe('2026-03');
    }
  });
});

describe('shiftMonth', () => {
  it('steps across years both ways', () => {
    expect(shiftMonth('2026-12', BERLIN, 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', BERLIN, -1)).toBe('2025-12');
    expect(shiftMonth('2026-03', BERLIN, 0)).toBe('2026-03');
    expect(shiftMonth('2026-03', 'UTC', 12)).toBe('2027-03');
  });
});

describe('monthQueries', () => {
  it('splits a month at its 16th, local midnight, into two windows that meet', () => {
    const window = monthOf('2026-03', BERLIN, NOW);
    expect(monthQueries(window, BERLIN)).toEqual([
      { startMs: window.startMs, endMs: at('2026-03-15T23:00:00.000Z') },
      { startMs: at('2026-03-15T23:00:00.000Z'), endMs: window.endMs },
    ]);
  });

  it('every month in every zone: two contiguous halves covering the month, each well within 31 days, across DST', () => {
    const zones = ['UTC', BERLIN, 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Kolkata', 'America/Santiago'];
    for (const zone of zones) {
      for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
        const month = shiftMonth('2026-01', zone, offset);
        const window = monthOf(month, zone, at('2026-01-01T12:00:00Z'));
        expect(window.month).toBe(month);
        const [first, second] = monthQueries(window, zone) as [{ startMs: number; endMs: number }, { startMs: number; endMs: number }];
        expect(first.startMs).toBe(window.startMs);
        expect(first.endMs).toBe(second.startMs);
        expect(second.endMs).toBe(window.endMs);
        expect(DateTime.fromMillis(first.endMs, { zone }).toFormat('dd HH:mm')).toBe('16 00:00');
        for (const half of [first, second]) {
          expect(half.endMs - half.startMs).toBeGreaterThan(12 * DAY);
          expect(half.endMs - half.startMs).toBeLessThanOrEqual(16 * DAY + 3_600_000);
        }
      }
    }
  });
});

describe('weeksOf', () => {
  it('lays a month out in weeks from Monday, days outside it null', () => {
    // 1 March 2026 is a Sunday.
    const weeks = weeksOf('2026-03');
    expect(weeks).toHaveLength(6);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(weeks[1]).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08']);
    expect(weeks[5]).toEqual(['2026-03-30', '2026-03-31', null, null, null, null, null]);
  });

  it('a February from a Monday is four whole weeks; a month from a Monday starts without blanks', () => {
    const february = weeksOf('2027-02');
    expect(february).toHaveLength(4);
    expect(february.flat()).toEqual(Array.from({ length: 28 }, (_, i) => `2027-02-${String(i + 1).padStart(2, '0')}`));
    expect(weeksOf('2026-06')[0]?.[0]).toBe('2026-06-01');
  });

  it('for every month: each date once, in order, in the column of its weekday', () => {
    for (let offset = 0; offset < 48; offset++) {
      const month = shiftMonth('2026-01', 'UTC', offset);
      const weeks = weeksOf(month);
      for (const week of weeks) expect(week).toHaveLength(7);
      const dates = weeks.flat().filter((d): d is string => d !== null);
      expect(dates).toHaveLength(DateTime.fromISO(`${month}-01`).daysInMonth as number);
      expect(dates.every((d, i) => d === `${month}-${String(i + 1).padStart(2, '0')}`)).toBe(true);
      weeks.forEach((week) => {
        week.forEach((date, column) => {
          if (date !== null) expect(DateTime.fromISO(date).weekday).toBe(column + 1);
        });
      });
      // No week is all blanks.
      expect(weeks.every((week) => week.some((d) => d !== null))).toBe(true);
    }
  });
});

describe('slotsByDay', () => {
  const slot = (start: string) => ({ start, end: start });

  it('groups starts by the local date they fall on, in order', () => {
    const slots = ['2026-03-02T22:30:00Z', '2026-03-02T23:00:00Z', '2026-03-03T08:00:00Z', '2026-03-03T23:30:00Z'].map(slot);
    expect(slotsByDay(slots, BERLIN)).toEqual(
      new Map([
        ['2026-03-02', [slots[0]]],
        ['2026-03-03', [slots[1], slots[2]]],
        ['2026-03-04', [slots[3]]],
      ]),
    );
    expect([...slotsByDay(slots, 'UTC').keys()]).toEqual(['2026-03-02', '2026-03-03']);
    expect(slotsByDay([], BERLIN)).toEqual(new Map());
  });

  it('on the days clocks change, by the offset of each start', () => {
    // 29 March: 01:00 UTC is 03:00 CEST; 28 March 23:30 UTC is 00:30 CET on the 29th.
    // 25 October: 22:30 UTC on the 24th is 00:30 CEST on the 25th; 23:30 UTC on the 25th is 00:30 CET on the 26th.
    const slots = ['2026-03-28T22:30:00Z', '2026-03-28T23:30:00Z', '2026-03-29T21:30:00Z', '2026-03-29T22:00:00Z'].map(slot);
    expect([...slotsByDay(slots, BERLIN).entries()].map(([d, s]) => [d, s.length])).toEqual([
      ['2026-03-28', 1],
      ['2026-03-29', 2],
      ['2026-03-30', 1],
    ]);
    const autumn = ['2026-10-24T21:30:00Z', '2026-10-24T22:30:00Z', '2026-10-25T22:30:00Z', '2026-10-25T23:30:00Z'].map(slot);
    expect([...slotsByDay(autumn, BERLIN).entries()].map(([d, s]) => [d, s.length])).toEqual([
      ['2026-10-24', 1],
      ['2026-10-25', 2],
      ['2026-10-26', 1],
    ]);
  });

  it('localDate is the date in the zone', () => {
    expect(localDate('2026-03-02T23:30:00Z', BERLIN)).toBe('2026-03-03');
    expect(localDate('2026-03-02T23:30:00Z', 'America/New_York')).toBe('2026-03-02');
    expect(localDate('not a time', BERLIN)).toBe('');
  });
});

describe('dateIn', () => {
  it('is a date of the month asked for, else undefined', () => {
    expect(dateIn('2026-03-15', '2026-03')).toBe('2026-03-15');
    expect(dateIn('2026-03-01', '2026-03')).toBe('2026-03-01');
    expect(dateIn('2026-03-31', '2026-03')).toBe('2026-03-31');
    expect(dateIn('2028-02-29', '2028-02')).toBe('2028-02-29');
    for (const asked of [
      undefined,
      '',
      '2026-04-01',
      '2026-02-28',
      '2026-03-5',
      '2026-03-015',
      '2026-03-15x',
      ' 2026-03-15',
      '2026-03-32',
      '2026-03-00',
    ]) {
      expect(dateIn(asked, '2026-03')).toBeUndefined();
    }
    // A date the calendar does not have.
    expect(dateIn('2026-02-29', '2026-02')).toBeUndefined();
    expect(dateIn('2026-02-30', '2026-02')).toBeUndefined();
    expect(dateIn('2026-04-31', '2026-04')).toBeUndefined();
  });
});

describe('dayWindow', () => {
  it('is the local day, 23 or 25 hours on the days clocks change', () => {
    expect(dayWindow('2026-03-03', BERLIN)).toEqual({ startMs: at('2026-03-02T23:00:00Z'), endMs: at('2026-03-03T23:00:00Z') });
    const spring = dayWindow('2026-03-29', BERLIN);
    expect(spring.endMs - spring.startMs).toBe(23 * 3_600_000);
    const autumn = dayWindow('2026-10-25', BERLIN);
    expect(autumn.endMs - autumn.startMs).toBe(25 * 3_600_000);
  });
});
