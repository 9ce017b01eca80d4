import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Interval, mergeIntervals, overlaps } from '../src/availability/busy.js';

const span = (startMs: number, endMs: number): Interval => ({ startMs, endMs });

describe('overlaps', () => {
  it.each([
    ['one inside the other', span(0, 10), span(3, 5), true],
    ['crossing at the start', span(5, 10), span(0, 6), true],
    ['crossing at the end', span(0, 6), span(5, 10), true],
    ['the same interval', span(0, 10), span(0, 10), true],
    // Half-open: an interval ending where another starts shares no instant with it.
    ['touching, the first ending where the second starts', span(0, 5), span(5, 10), false],
    ['touching, the second ending where the first starts', span(5, 10), span(0, 5), false],
    ['apart', span(0, 4), span(6, 10), false],
  ])('%s: %s', (_, a, b, expected) => {
    expect(overlaps(a, b)).toBe(expected);
  });
});

describe('mergeIntervals', () => {
  it('merges intervals that touch into one: an interval ending where the next starts leaves no instant free between them', () => {
    expect(mergeIntervals([span(0, 5), span(5, 10)])).toEqual([span(0, 10)]);
  });

  it('keeps intervals a millisecond apart apart', () => {
    expect(mergeIntervals([span(0, 5), span(6, 10)])).toEqual([span(0, 5), span(6, 10)]);
  });

  it('sorts by start whatever the order given', () => {
    expect(mergeIntervals([span(20, 30), span(0, 5), span(10, 15)])).toEqual([span(0, 5), span(10, 15), span(20, 30)]);
  });

  it('keeps the later end when an interval lies inside the one before', () => {
    expect(mergeIntervals([span(0, 10), span(2, 4)])).toEqual([span(0, 10)]);
  });

  it('drops intervals of no length, and reversed ones: they hold no instant', () => {
    expect(mergeIntervals([span(5, 5), span(9, 7)])).toEqual([]);
  });

  it('does not let an interval of no length join its neighbours', () => {
    expect(mergeIntervals([span(0, 5), span(6, 6), span(7, 10)])).toEqual([span(0, 5), span(7, 10)]);
  });

  it('gives sorted intervals that neither overlap nor touch and hold exactly the instants given', () => {
    const intervals = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: -5, max: 20 })).map(([start, length]) => span(start, start + length)),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(intervals, (given) => {
        const merged = mergeIntervals(given);
        for (const [i, m] of merged.entries()) {
          expect(m.endMs).toBeGreaterThan(m.startMs);
          if (i > 0) expect(m.startMs).toBeGreaterThan(merged[i - 1]!.endMs);
        }
        // Every whole instant from -1 to 81 is busy after merging exactly when it was before.
        for (let t = -1; t <= 81; t++) {
          const before = given.some((g) => g.startMs <= t && t < g.endMs);
          const after = merged.some((m) => m.startMs <= t && t < m.endMs);
          expect(after).toBe(before);
        }
      }),
    );
  });
});
