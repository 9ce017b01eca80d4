import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ZONES } from '../src/format.js';
import { localDate, slotsByDay } from '../src/month.js';

// The local date of a start decides which day of the calendar lists it. It
// is read with a cached Intl formatter (the page asks it once per free time);
// luxon's zoned date, which it replaced, is the reference it must agree with.

const instants = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 31) }).map((ms) => new Date(ms).toISOString());
const zones = fc.constantFrom(...ZONES);

describe('localDate', () => {
  it('is the date luxon gives the instant in the zone, for every zone the page offers', () => {
    fc.assert(
      fc.property(instants, zones, (instant, zone) => {
        expect(localDate(instant, zone)).toBe(DateTime.fromISO(instant, { zone }).toISODate());
      }),
      { numRuns: 5000 },
    );
  });

  it('turns at local midnight, not at UTC midnight', () => {
    // 23:30 UTC on 1 December is 00:30 on 2 December in Berlin, and 18:30 on 1 December in New York.
    expect(localDate('2026-12-01T23:30:00.000Z', 'Europe/Berlin')).toBe('2026-12-02');
    expect(localDate('2026-12-01T23:30:00.000Z', 'America/New_York')).toBe('2026-12-01');
    // Kathmandu is 5:45 ahead: 18:15 UTC is its midnight.
    expect(localDate('2026-12-01T18:14:00.000Z', 'Asia/Kathmandu')).toBe('2026-12-01');
    expect(localDate('2026-12-01T18:15:00.000Z', 'Asia/Kathmandu')).toBe('2026-12-02');
  });

  it('is empty for no instant', () => {
    expect(localDate('not a time', 'UTC')).toBe('');
  });
});

describe('slotsByDay', () => {
  it('keeps every start, in order, under its local date', () => {
    fc.assert(
      fc.property(fc.uniqueArray(instants, { maxLength: 60 }), zones, (starts, zone) => {
        const slots = [...starts].sort().map((start) => ({ start, end: start }));
        const days = slotsByDay(slots, zone);
        expect([...days.values()].flat()).toEqual(
          [...days.keys()].flatMap((date) => slots.filter((s) => DateTime.fromISO(s.start, { zone }).toISODate() === date)),
        );
        expect([...days.values()].flat().length).toBe(slots.length);
      }),
      { numRuns: 300 },
    );
  });
});
