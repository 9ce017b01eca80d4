import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandPattern, patternInstants } from '../src/series/expand-pattern.js';
import type { Pattern, PatternInstant, PatternWeekday } from '../src/series/pattern.js';

// Expected values are worked out by hand from the zones' published rules
// (Europe/Berlin: CET +01:00, CEST +02:00 from 2026-03-29 to 2026-10-25;
// Australia/Adelaide: ACDT +10:30 until 2026-04-05, ACST +09:30, ACDT again
// from 2026-10-04), not read back from the code under test.

/** Long before every starts_on below, so nothing is passed over unless a test says so. */
const LONG_AGO = Date.UTC(2000, 0, 1);

const weekly = (startsOn: string, weekdays: PatternWeekday[], time: string, timezone: string, intervalWeeks = 1): Pattern => ({
  frequency: 'weekly',
  intervalWeeks,
  weekdays,
  time,
  timezone,
  startsOn,
});

const monthly = (startsOn: string, time: string, timezone: string): Pattern => ({
  frequency: 'monthly_same_day',
  intervalWeeks: 1,
  weekdays: [],
  time,
  timezone,
  startsOn,
});

/** Instants shown as `date instant` strings, so a failure reads like the expectation. */
const shown = (instants: PatternInstant[]) => instants.map(({ date, instantMs }) => `${date} ${new Date(instantMs).toISOString()}`);

const expand = (pattern: Pattern, count: number, nowMs = LONG_AGO) => shown(expandPattern(pattern, count, nowMs));

describe('expandPattern', () => {
  describe('spring-forward gap moves forward', () => {
    it('Europe/Berlin 02:30 every Sunday across 2026-03-29: the gap day is 03:30 CEST, 01:30Z', () => {
      expect(expand(weekly('2026-03-22', ['sun'], '02:30', 'Europe/Berlin'), 3)).toEqual([
        '2026-03-22 2026-03-22T01:30:00.000Z',
        '2026-03-29 2026-03-29T01:30:00.000Z',
        '2026-04-05 2026-04-05T00:30:00.000Z',
      ]);
    });

    it('America/New_York 02:30 every Sunday across 2026-03-08: the gap day is 03:30 EDT, 07:30Z', () => {
      expect(expand(weekly('2026-03-01', ['sun'], '02:30', 'America/New_York'), 3)).toEqual([
        '2026-03-01 2026-03-01T07:30:00.000Z',
        '2026-03-08 2026-03-08T07:30:00.000Z',
        '2026-03-15 2026-03-15T06:30:00.000Z',
      ]);
    });
  });

  describe('fall-back takes the first instant', () => {
    it('Europe/Berlin 02:30 every Sunday across 2026-10-25: the doubled time is the CEST one, 00:30Z', () => {
      expect(expand(weekly('2026-10-18', ['sun'], '02:30', 'Europe/Berlin'), 3)).toEqual([
        '2026-10-18 2026-10-18T00:30:00.000Z',
        '2026-10-25 2026-10-25T00:30:00.000Z',
        '2026-11-01 2026-11-01T01:30:00.000Z',
      ]);
    });
  });

  describe('interval_weeks 2 with two weekdays, starting mid-week', () => {
    it('starts_on Wednesday 2026-01-07 with mon+thu: that Thursday, then Monday and Thursday of weeks 2, 4, ...', () => {
      // Week 0 is Mon 2026-01-05 .. Sun 2026-01-11; its Monday precedes starts_on and is not used.
      expect(expand(weekly('2026-01-07', ['mon', 'thu'], '09:00', 'America/New_York', 2), 6)).toEqual([
        '2026-01-08 2026-01-08T14:00:00.000Z',
        '2026-01-19 2026-01-19T14:00:00.000Z',
        '2026-01-22 2026-01-22T14:00:00.000Z',
        '2026-02-02 2026-02-02T14:00:00.000Z',
        '2026-02-05 2026-02-05T14:00:00.000Z',
        '2026-02-16 2026-02-16T14:00:00.000Z',
      ]);
    });

    it('starts_on on a listed weekday includes starts_on itself', () => {
      expect(expand(weekly('2026-01-08', ['mon', 'thu'], '09:00', 'UTC', 2), 2)).toEqual([
        '2026-01-08 2026-01-08T09:00:00.000Z',
        '2026-01-19 2026-01-19T09:00:00.000Z',
      ]);
    });
  });

  describe('monthly on the 29th, 30th and 31st', () => {
    it('the 31st skips the five short months and still reaches count 8 (Europe/Berlin 10:00 across both changes)', () => {
      expect(expand(monthly('2026-01-31', '10:00', 'Europe/Berlin'), 8)).toEqual([
        '2026-01-31 2026-01-31T09:00:00.000Z',
        '2026-03-31 2026-03-31T08:00:00.000Z',
        '2026-05-31 2026-05-31T08:00:00.000Z',
        '2026-07-31 2026-07-31T08:00:00.000Z',
        '2026-08-31 2026-08-31T08:00:00.000Z',
        '2026-10-31 2026-10-31T09:00:00.000Z',
        '2026-12-31 2026-12-31T09:00:00.000Z',
        '2027-01-31 2027-01-31T09:00:00.000Z',
      ]);
    });

    it('the 30th skips February', () => {
      expect(expand(monthly('2026-01-30', '10:00', 'UTC'), 3)).toEqual([
        '2026-01-30 2026-01-30T10:00:00.000Z',
        '2026-03-30 2026-03-30T10:00:00.000Z',
        '2026-04-30 2026-04-30T10:00:00.000Z',
      ]);
    });

    it('the 29th skips February 2027 across a year end, and keeps February 2028 (a leap year)', () => {
      expect(expand(monthly('2026-12-29', '10:00', 'UTC'), 3)).toEqual([
        '2026-12-29 2026-12-29T10:00:00.000Z',
        '2027-01-29 2027-01-29T10:00:00.000Z',
        '2027-03-29 2027-03-29T10:00:00.000Z',
      ]);
      expect(expand(monthly('2028-01-29', '10:00', 'UTC'), 3)).toEqual([
        '2028-01-29 2028-01-29T10:00:00.000Z',
        '2028-02-29 2028-02-29T10:00:00.000Z',
        '2028-03-29 2028-03-29T10:00:00.000Z',
      ]);
    });

    it('weekdays are ignored for monthly_same_day', () => {
      const withWeekdays: Pattern = { ...monthly('2026-01-30', '10:00', 'UTC'), weekdays: ['mon'] };
      expect(expand(withWeekdays, 3)).toEqual(expand(monthly('2026-01-30', '10:00', 'UTC'), 3));
    });

    it('past months are passed over and the count is made up later', () => {
      expect(expand(monthly('2026-01-31', '10:00', 'UTC'), 2, Date.parse('2026-04-01T00:00:00Z'))).toEqual([
        '2026-05-31 2026-05-31T10:00:00.000Z',
        '2026-07-31 2026-07-31T10:00:00.000Z',
      ]);
    });
  });

  describe('zones with a 30-minute offset', () => {
    it('Asia/Kolkata (+05:30) 09:00 every Tuesday is 03:30Z', () => {
      expect(expand(weekly('2026-03-03', ['tue'], '09:00', 'Asia/Kolkata'), 2)).toEqual([
        '2026-03-03 2026-03-03T03:30:00.000Z',
        '2026-03-10 2026-03-10T03:30:00.000Z',
      ]);
    });

    it('Australia/Adelaide fall-back 2026-04-05: 02:30 happens at +10:30 and +09:30; the first is 16:00Z the day before', () => {
      expect(expand(weekly('2026-03-29', ['sun'], '02:30', 'Australia/Adelaide'), 3)).toEqual([
        '2026-03-29 2026-03-28T16:00:00.000Z',
        '2026-04-05 2026-04-04T16:00:00.000Z',
        '2026-04-12 2026-04-11T17:00:00.000Z',
      ]);
    });

    it('Australia/Adelaide spring-forward 2026-10-04: 02:30 is in the gap and becomes 03:30 ACDT, 17:00Z the day before', () => {
      expect(expand(weekly('2026-09-27', ['sun'], '02:30', 'Australia/Adelaide'), 3)).toEqual([
        '2026-09-27 2026-09-26T17:00:00.000Z',
        '2026-10-04 2026-10-03T17:00:00.000Z',
        '2026-10-11 2026-10-10T16:00:00.000Z',
      ]);
    });
  });

  describe('count 42', () => {
    it('mon+wed+fri from Monday 2026-01-05 fills 14 weeks, the last on Friday 2026-04-10, across the March change', () => {
      const instants = expand(weekly('2026-01-05', ['mon', 'wed', 'fri'], '09:30', 'Europe/Berlin'), 42);
      expect(instants).toHaveLength(42);
      expect(instants[0]).toBe('2026-01-05 2026-01-05T08:30:00.000Z');
      // The last CET Friday and the first CEST Monday.
      expect(instants[35]).toBe('2026-03-27 2026-03-27T08:30:00.000Z');
      expect(instants[36]).toBe('2026-03-30 2026-03-30T07:30:00.000Z');
      expect(instants[41]).toBe('2026-04-10 2026-04-10T07:30:00.000Z');
    });

    it('interval_weeks 8 with one weekday per used week reaches 2028: week 104 holds the last', () => {
      const instants = expand(weekly('2026-01-05', ['mon', 'wed', 'fri'], '09:30', 'Europe/Berlin', 8), 42);
      expect(instants).toHaveLength(42);
      expect(instants[41]).toBe('2028-01-07 2028-01-07T08:30:00.000Z');
    });
  });

  describe('past instants are passed over', () => {
    const pattern = weekly('2026-01-05', ['mon', 'thu'], '09:00', 'UTC');

    it('now between two instants: the next instant is the first, and count is still reached', () => {
      expect(expand(pattern, 3, Date.parse('2026-01-06T12:00:00Z'))).toEqual([
        '2026-01-08 2026-01-08T09:00:00.000Z',
        '2026-01-12 2026-01-12T09:00:00.000Z',
        '2026-01-15 2026-01-15T09:00:00.000Z',
      ]);
    });

    it('an instant equal to now is not in the future', () => {
      expect(expand(pattern, 2, Date.parse('2026-01-08T09:00:00Z'))).toEqual([
        '2026-01-12 2026-01-12T09:00:00.000Z',
        '2026-01-15 2026-01-15T09:00:00.000Z',
      ]);
    });

    it('west of UTC, an instant whose UTC date is the day after its local Sunday is kept (the walk skips from two days before now)', () => {
      // Sunday 20:00 PST is Monday 04:00Z; now (Monday 03:00Z) is in the week after that Sunday's in UTC.
      const sundayEvening = weekly('2026-01-04', ['sun'], '20:00', 'America/Los_Angeles');
      expect(expand(sundayEvening, 2, Date.parse('2026-03-02T03:00:00Z'))).toEqual([
        '2026-03-01 2026-03-02T04:00:00.000Z',
        '2026-03-08 2026-03-09T03:00:00.000Z',
      ]);
    });

    it('count 0 gives nothing', () => {
      expect(expandPattern(pattern, 0, LONG_AGO)).toEqual([]);
    });
  });

  describe('Sunday ends the Monday-start week', () => {
    it('starts_on Sunday 2026-03-01 with mon+sun every 2 weeks: the Sunday is week 0, the next Monday is week 1 and unused', () => {
      // Week 0 is Mon 2026-02-23 .. Sun 2026-03-01. A Sunday-start week would
      // have put Monday 2026-03-02 into week 0 instead.
      expect(expand(weekly('2026-03-01', ['mon', 'sun'], '09:00', 'UTC', 2), 4)).toEqual([
        '2026-03-01 2026-03-01T09:00:00.000Z',
        '2026-03-09 2026-03-09T09:00:00.000Z',
        '2026-03-15 2026-03-15T09:00:00.000Z',
        '2026-03-23 2026-03-23T09:00:00.000Z',
      ]);
    });
  });

  describe('weekdays given out of order are walked in day order', () => {
    it('fri, mon, wed gives the same instants as mon, wed, fri', () => {
      const listed = expand(weekly('2026-01-07', ['fri', 'mon', 'wed'], '09:00', 'UTC'), 6);
      expect(listed).toEqual(expand(weekly('2026-01-07', ['mon', 'wed', 'fri'], '09:00', 'UTC'), 6));
      expect(listed.slice(0, 3)).toEqual([
        '2026-01-07 2026-01-07T09:00:00.000Z',
        '2026-01-09 2026-01-09T09:00:00.000Z',
        '2026-01-12 2026-01-12T09:00:00.000Z',
      ]);
    });

    it('sun, mon: Sunday comes after Monday within a week, so the first is Sunday of week 0 and then Monday of week 1', () => {
      expect(expand(weekly('2026-01-07', ['sun', 'mon'], '09:00', 'UTC'), 4)).toEqual([
        '2026-01-11 2026-01-11T09:00:00.000Z',
        '2026-01-12 2026-01-12T09:00:00.000Z',
        '2026-01-18 2026-01-18T09:00:00.000Z',
        '2026-01-19 2026-01-19T09:00:00.000Z',
      ]);
    });
  });
});

describe('patternInstants', () => {
  it('a generator consumer can stop early, and the generator is then done', () => {
    const instants = patternInstants(weekly('2026-01-05', ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], '09:00', 'UTC'));
    const seen: string[] = [];
    for (const { date } of instants) {
      seen.push(date);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['2026-01-05', '2026-01-06', '2026-01-07']);
    expect(instants.next()).toEqual({ done: true, value: undefined });
  });

  it('goes on without end: the 500th instant on the 31st is 2097-05-31', () => {
    // Seven months a year have a 31st: 71 years (2026..2096) give 497, and the
    // 498th..500th are January, March and May 2097.
    const instants = patternInstants(monthly('2026-01-31', '10:00', 'UTC'));
    let last: PatternInstant | undefined;
    for (let i = 0; i < 500; i++) last = instants.next().value as PatternInstant;
    expect(last?.date).toBe('2097-05-31');
  });

  it('a weekly pattern with no weekdays yields nothing instead of spinning', () => {
    expect([...patternInstants(weekly('2026-01-05', [], '09:00', 'UTC'))]).toEqual([]);
    expect(expandPattern(weekly('2026-01-05', [], '09:00', 'UTC'), 42, LONG_AGO)).toEqual([]);
  });
});

describe('guards behind validation (a caller past validation never reaches them; a direct caller does)', () => {
  it.each([
    ['0', 0],
    ['1.5', 1.5],
    ['-1', -1],
  ])('refuses intervalWeeks %s instead of repeating week 0', (_, intervalWeeks) => {
    expect(() => patternInstants({ ...weekly('2026-01-05', ['mon'], '09:00', 'UTC'), intervalWeeks }).next()).toThrow(
      new RangeError(`intervalWeeks must be a positive integer, got ${intervalWeeks}`),
    );
  });

  it.each(['x2026-01-05', '2026-01-05x', '2026-1-05'])('refuses startsOn %s', (startsOn) => {
    expect(() => patternInstants(weekly(startsOn, ['mon'], '09:00', 'UTC')).next()).toThrow(
      new RangeError(`startsOn must be YYYY-MM-DD, got ${startsOn}`),
    );
  });

  it.each(['9:00', 'x09:00', '09:00x'])('refuses time %s', (time) => {
    expect(() => patternInstants(weekly('2026-01-05', ['mon'], time, 'UTC')).next()).toThrow(
      new RangeError(`time must be HH:MM, got ${time}`),
    );
  });

  it('passes over a weekday name it does not know', () => {
    const odd = weekly('2026-01-05', ['wed', 'funday' as PatternWeekday], '09:00', 'UTC');
    expect(expand(odd, 2)).toEqual(['2026-01-07 2026-01-07T09:00:00.000Z', '2026-01-14 2026-01-14T09:00:00.000Z']);
  });
});

describe('expansion properties', () => {
  const ZONES = [
    'UTC',
    'Europe/Berlin',
    'America/New_York',
    'America/Sao_Paulo', // changed clocks at midnight until 2019
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Adelaide',
    'Australia/Lord_Howe', // a 30-minute DST shift
    // Far west: an evening instant falls on the next UTC date, the case the walk's two-day margin is for.
    'America/Los_Angeles',
    'Pacific/Honolulu',
  ];
  const DAY_NAMES: PatternWeekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  const DAY_MS = 86_400_000;
  const epochDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
  /** Weekday of a `YYYY-MM-DD`, read independently of the code under test. */
  const weekdayName = (date: string) => DAY_NAMES[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
  /** Epoch day of the Monday that starts the week holding `date`. */
  const mondayOf = (date: string) => epochDay(date) - ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7);

  const patterns: fc.Arbitrary<Pattern> = fc.record({
    frequency: fc.constantFrom('weekly' as const, 'monthly_same_day' as const),
    // Every week half the time: with a longer interval the walk's weeks rarely meet the edge cases.
    intervalWeeks: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 8 })),
    weekdays: fc.shuffledSubarray(DAY_NAMES, { minLength: 1 }),
    time: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
    timezone: fc.constantFrom(...ZONES),
    startsOn: fc
      .integer({ min: epochDay('2015-01-01'), max: epochDay('2035-12-31') })
      .map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10)),
  });

  it('instants strictly increase, dates fit the pattern, none precedes starts_on, and none is missed', () => {
    fc.assert(
      fc.property(patterns, (pattern) => {
        const instants: PatternInstant[] = [];
        for (const instant of patternInstants(pattern)) {
          instants.push(instant);
          if (instants.length === 20) break;
        }
        expect(instants).toHaveLength(20);
        for (let i = 1; i < instants.length; i++) {
          expect(instants[i]!.instantMs).toBeGreaterThan(instants[i - 1]!.instantMs);
        }
        for (const { date } of instants) {
          expect(date >= pattern.startsOn).toBe(true);
          if (pattern.frequency === 'weekly') {
            expect(pattern.weekdays).toContain(weekdayName(date));
            const week = (mondayOf(date) - mondayOf(pattern.startsOn)) / 7;
            expect(week % pattern.intervalWeeks).toBe(0);
          } else {
            expect(date.slice(8)).toBe(pattern.startsOn.slice(8));
          }
        }
        // Walking day by day from starts_on to the last date finds exactly these dates.
        const walked: string[] = [];
        const last = instants.at(-1)!.date;
        for (let day = epochDay(pattern.startsOn); ; day++) {
          const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
          const fits =
            pattern.frequency === 'weekly'
              ? pattern.weekdays.includes(weekdayName(date)) &&
                ((mondayOf(date) - mondayOf(pattern.startsOn)) / 7) % pattern.intervalWeeks === 0
              : date.slice(8) === pattern.startsOn.slice(8);
          if (fits) walked.push(date);
          if (date === last) break;
        }
        expect(instants.map(({ date }) => date)).toEqual(walked);
      }),
      { numRuns: 200 },
    );
  });

  it('expandPattern returns exactly count instants, all after now, in order', () => {
    fc.assert(
      fc.property(patterns, fc.integer({ min: 1, max: 42 }), fc.integer({ min: -30, max: 400 }), (pattern, count, nowDay) => {
        const nowMs = (epochDay(pattern.startsOn) + nowDay) * DAY_MS;
        const instants = expandPattern(pattern, count, nowMs);
        expect(instants).toHaveLength(count);
        expect(instants.every(({ instantMs }) => instantMs > nowMs)).toBe(true);
        const sorted = [...instants].sort((a, b) => a.instantMs - b.instantMs);
        expect(instants).toEqual(sorted);
      }),
      { numRuns: 100 },
    );
  });

  /** The walk from starts_on, up to `extra` instants after `afterMs`. */
  const fullWalk = (pattern: Pattern, afterMs: number, extra: number): PatternInstant[] => {
    const walked: PatternInstant[] = [];
    let after = 0;
    for (const instant of patternInstants(pattern)) {
      walked.push(instant);
      if (instant.instantMs > afterMs && ++after === extra) return walked;
    }
    return walked;
  };
  const firstAfter = (walked: PatternInstant[], nowMs: number, count: number) => walked.filter((i) => i.instantMs > nowMs).slice(0, count);
  const PERIOD_DAYS = (pattern: Pattern) => (pattern.frequency === 'weekly' ? 7 * pattern.intervalWeeks : 31);

  it('a walk that skips periods before now gives the same instants as the walk from starts_on, for now anywhere near an instant', () => {
    fc.assert(
      fc.property(patterns, fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 42 }), (pattern, nowDay, count) => {
        const baseMs = (epochDay(pattern.startsOn) + nowDay) * DAY_MS + 3_600_000 * (nowDay % 24);
        const walked = fullWalk(pattern, baseMs, 6 + count);
        // Now at that time, and just before each of the next instants and at the start of their UTC date:
        // west of UTC an evening instant's UTC date is the next day, and may begin the next UTC week.
        const nows = [
          baseMs,
          ...firstAfter(walked, baseMs, 6).flatMap(({ instantMs }) => [instantMs - 1, instantMs - (instantMs % DAY_MS)]),
        ];
        for (const nowMs of nows) {
          expect(expandPattern(pattern, count, nowMs)).toEqual(firstAfter(walked, nowMs, count));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('skips ahead: the first instant walked is on or after starts_on and less than one period (plus two days) before notBefore', () => {
    fc.assert(
      fc.property(patterns, fc.integer({ min: -400, max: 3000 }), fc.integer({ min: 0, max: DAY_MS - 1 }), (pattern, nowDay, ms) => {
        const notBeforeMs = (epochDay(pattern.startsOn) + nowDay) * DAY_MS + ms;
        const first = patternInstants(pattern, notBeforeMs).next().value as PatternInstant;
        expect(first.date >= pattern.startsOn).toBe(true);
        // Two days of margin, and one more for the widest zone offset.
        expect(notBeforeMs - first.instantMs).toBeLessThan((PERIOD_DAYS(pattern) + 3) * DAY_MS);
      }),
      { numRuns: 300 },
    );
  });
});
