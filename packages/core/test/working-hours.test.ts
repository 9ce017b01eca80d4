import { describe, expect, it } from 'vitest';
import { gridAnchors, workingIntervals } from '../src/availability/working-hours.js';
import type { Schedule } from '../src/event-types/schedule.js';

type Weekly = Schedule['weekly'];

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const everyDay = (...intervals: [string, string][]): Weekly => Object.fromEntries(EVERY_DAY.map((d) => [d, intervals]));

function schedule(weekly: Weekly, extra: Partial<Schedule> = {}): Schedule {
  return { timezone: 'Europe/Berlin', weekly, overrides: [], ...extra };
}

/** The working intervals overlapping [from, to), as ISO pairs. */
function hours(s: Schedule | null, from: string, to: string, fallbackZone = 'UTC'): [string, string][] {
  return workingIntervals(s, fallbackZone, { startMs: Date.parse(from), endMs: Date.parse(to) }).map((i) => [
    new Date(i.startMs).toISOString(),
    new Date(i.endMs).toISOString(),
  ]);
}

const NINE_TO_FIVE = schedule(everyDay(['09:00', '17:00']));

describe('workingIntervals', () => {
  describe('Europe/Berlin 09:00–17:00', () => {
    it('is 08:00Z–16:00Z on a winter day', () => {
      expect(hours(NINE_TO_FIVE, '2026-01-14T00:00:00Z', '2026-01-14T23:00:00Z')).toEqual([
        ['2026-01-14T08:00:00.000Z', '2026-01-14T16:00:00.000Z'],
      ]);
    });

    it('is 07:00Z–15:00Z on a summer day', () => {
      expect(hours(NINE_TO_FIVE, '2026-07-15T00:00:00Z', '2026-07-15T22:00:00Z')).toEqual([
        ['2026-07-15T07:00:00.000Z', '2026-07-15T15:00:00.000Z'],
      ]);
    });

    it('stays 09:00–17:00 local on the spring-forward day (2026-03-29), the day before still in winter time', () => {
      expect(hours(NINE_TO_FIVE, '2026-03-28T00:00:00Z', '2026-03-29T22:00:00Z')).toEqual([
        ['2026-03-28T08:00:00.000Z', '2026-03-28T16:00:00.000Z'],
        ['2026-03-29T07:00:00.000Z', '2026-03-29T15:00:00.000Z'],
      ]);
    });

    it('stays 09:00–17:00 local on the fall-back day (2026-10-25), the day before still in summer time', () => {
      expect(hours(NINE_TO_FIVE, '2026-10-24T00:00:00Z', '2026-10-25T23:00:00Z')).toEqual([
        ['2026-10-24T07:00:00.000Z', '2026-10-24T15:00:00.000Z'],
        ['2026-10-25T08:00:00.000Z', '2026-10-25T16:00:00.000Z'],
      ]);
    });
  });

  describe('intervals across a DST change', () => {
    it('spring-forward day: a whole day 00:00–24:00 lasts 23 hours', () => {
      const s = schedule({ sun: [['00:00', '24:00']] });
      expect(hours(s, '2026-03-29T00:00:00Z', '2026-03-29T12:00:00Z')).toEqual([['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']]);
    });

    it('fall-back day: a whole day 00:00–24:00 lasts 25 hours', () => {
      const s = schedule({ sun: [['00:00', '24:00']] });
      expect(hours(s, '2026-10-25T00:00:00Z', '2026-10-25T12:00:00Z')).toEqual([['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']]);
    });

    it('spring-forward gap moves forward: 02:30–04:00 starts at 03:30 CEST and lasts 30 minutes', () => {
      const s = schedule({ sun: [['02:30', '04:00']] });
      expect(hours(s, '2026-03-29T00:00:00Z', '2026-03-29T12:00:00Z')).toEqual([['2026-03-29T01:30:00.000Z', '2026-03-29T02:00:00.000Z']]);
    });

    it('fall-back takes the first instant: 01:00–03:00 on the fall-back day lasts three hours', () => {
      const s = schedule({ sun: [['01:00', '03:00']] });
      expect(hours(s, '2026-10-25T00:00:00Z', '2026-10-25T12:00:00Z')).toEqual([['2026-10-24T23:00:00.000Z', '2026-10-25T02:00:00.000Z']]);
    });
  });

  it('ends an interval ending "24:00" at the next local midnight', () => {
    const s = schedule({ wed: [['20:00', '24:00']] });
    expect(hours(s, '2026-01-14T00:00:00Z', '2026-01-15T00:00:00Z')).toEqual([['2026-01-14T19:00:00.000Z', '2026-01-14T23:00:00.000Z']]);
  });

  it('returns several intervals of one day in time order', () => {
    const s = schedule({
      mon: [
        ['13:00', '17:00'],
        ['09:00', '12:00'],
      ],
    });
    expect(hours(s, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z')).toEqual([
      ['2026-03-02T08:00:00.000Z', '2026-03-02T11:00:00.000Z'],
      ['2026-03-02T12:00:00.000Z', '2026-03-02T16:00:00.000Z'],
    ]);
  });

  it('merges written intervals that touch into one stretch, so the grid runs on across the seam (docs/workspace.md)', () => {
    const s = schedule({
      mon: [
        ['12:00', '17:00'],
        ['09:00', '12:00'],
      ],
    });
    expect(hours(s, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z')).toEqual([['2026-03-02T08:00:00.000Z', '2026-03-02T16:00:00.000Z']]);
  });

  it('merges a day ending 24:00 with the next day starting 00:00 into one stretch across local midnight', () => {
    const s = schedule({ mon: [['20:00', '24:00']], tue: [['00:00', '03:00']] });
    expect(hours(s, '2026-03-02T00:00:00Z', '2026-03-04T00:00:00Z')).toEqual([['2026-03-02T19:00:00.000Z', '2026-03-03T02:00:00.000Z']]);
  });

  it('returns an interval that began before the range whole, so the grid keeps its anchor', () => {
    expect(hours(NINE_TO_FIVE, '2026-01-14T10:10:00Z', '2026-01-14T10:20:00Z')).toEqual([
      ['2026-01-14T08:00:00.000Z', '2026-01-14T16:00:00.000Z'],
    ]);
  });

  it('leaves out intervals that only touch the range', () => {
    expect(hours(NINE_TO_FIVE, '2026-01-14T16:00:00Z', '2026-01-15T08:00:00Z')).toEqual([]);
  });

  it('finds an interval ending 24:00 when the range straddles local midnight', () => {
    const s = schedule({ tue: [['22:00', '24:00']] });
    // Tuesday 22:00–24:00 Berlin is 21:00Z–23:00Z; the range runs from Tuesday 23:30 to Wednesday 00:30 Berlin.
    expect(hours(s, '2026-01-13T22:30:00Z', '2026-01-13T23:30:00Z')).toEqual([['2026-01-13T21:00:00.000Z', '2026-01-13T23:00:00.000Z']]);
  });

  describe('date overrides', () => {
    it('an override replaces the weekday intervals of that date only', () => {
      const s = schedule(everyDay(['09:00', '17:00']), {
        overrides: [
          {
            date: '2026-01-14',
            intervals: [
              ['10:00', '11:00'],
              ['15:00', '18:00'],
            ],
          },
        ],
      });
      expect(hours(s, '2026-01-14T00:00:00Z', '2026-01-15T23:00:00Z')).toEqual([
        ['2026-01-14T09:00:00.000Z', '2026-01-14T10:00:00.000Z'],
        ['2026-01-14T14:00:00.000Z', '2026-01-14T17:00:00.000Z'],
        ['2026-01-15T08:00:00.000Z', '2026-01-15T16:00:00.000Z'],
      ]);
    });

    it('an empty override closes the day', () => {
      const s = schedule(everyDay(['09:00', '17:00']), { overrides: [{ date: '2026-12-24', intervals: [] }] });
      expect(hours(s, '2026-12-23T00:00:00Z', '2026-12-26T00:00:00Z')).toEqual([
        ['2026-12-23T08:00:00.000Z', '2026-12-23T16:00:00.000Z'],
        ['2026-12-25T08:00:00.000Z', '2026-12-25T16:00:00.000Z'],
      ]);
    });

    it('an override opens a day the week leaves closed', () => {
      const s = schedule({}, { overrides: [{ date: '2026-03-07', intervals: [['10:00', '12:00']] }] });
      expect(hours(s, '2026-03-01T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([['2026-03-07T09:00:00.000Z', '2026-03-07T11:00:00.000Z']]);
    });
  });

  it('a day the week does not list is closed', () => {
    const s = schedule({ mon: [['09:00', '17:00']] });
    expect(hours(s, '2026-03-03T00:00:00Z', '2026-03-08T00:00:00Z')).toEqual([]);
  });

  it('reads a schedule without its own zone in the host zone', () => {
    const s: Schedule = { weekly: { mon: [['09:00', '17:00']] }, overrides: [] };
    expect(hours(s, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z', 'Asia/Kolkata')).toEqual([
      ['2026-03-02T03:30:00.000Z', '2026-03-02T11:30:00.000Z'],
    ]);
  });

  it('no schedule means free around the clock: working time covers the whole range without a gap', () => {
    const from = Date.parse('2026-03-28T03:17:00Z');
    const to = Date.parse('2026-03-31T00:00:00Z');
    const intervals = workingIntervals(null, 'Europe/Berlin', { startMs: from, endMs: to });
    let covered = from;
    for (const i of intervals) if (i.startMs <= covered) covered = Math.max(covered, i.endMs);
    expect({ startsBy: (intervals[0]?.startMs ?? Number.POSITIVE_INFINITY) <= from, coveredTo: covered >= to }).toEqual({
      startsBy: true,
      coveredTo: true,
    });
  });
});

describe('gridAnchors', () => {
  /** The anchors of the stretch [from, to) in `zone`, as ISO instants. */
  const anchors = (from: string, to: string, zone: string) =>
    gridAnchors({ startMs: Date.parse(from), endMs: Date.parse(to) }, zone).map((ms) => new Date(ms).toISOString());

  it('anchors a stretch within one day at its start only', () => {
    expect(anchors('2026-03-02T08:00:00Z', '2026-03-02T16:00:00Z', 'Europe/Berlin')).toEqual(['2026-03-02T08:00:00.000Z']);
  });

  it('adds no anchor at the local midnight that ends a stretch: no slot can start there', () => {
    // Monday 20:00–24:00 Berlin: the stretch ends at Tuesday's midnight.
    expect(anchors('2026-03-02T19:00:00Z', '2026-03-02T23:00:00Z', 'Europe/Berlin')).toEqual(['2026-03-02T19:00:00.000Z']);
  });

  it('anchors again at each local midnight inside a stretch', () => {
    // Monday 20:00 to Wednesday 03:00 Berlin.
    expect(anchors('2026-03-02T19:00:00Z', '2026-03-04T02:00:00Z', 'Europe/Berlin')).toEqual([
      '2026-03-02T19:00:00.000Z',
      '2026-03-02T23:00:00.000Z',
      '2026-03-03T23:00:00.000Z',
    ]);
  });

  it('anchors a skipped day once: Samoa left out 2011-12-30, so its midnight and the next are one instant', () => {
    // Pacific/Apia went from -10:00 to +14:00: Thursday 29th 23:59 was followed by
    // Saturday 31st 00:00. Friday's midnight lies in the gap and moves to the
    // instant Saturday starts; the grid must not anchor there twice.
    expect(anchors('2011-12-30T09:00:00Z', '2011-12-31T12:00:00Z', 'Pacific/Apia')).toEqual([
      '2011-12-30T09:00:00.000Z',
      '2011-12-30T10:00:00.000Z',
      '2011-12-31T10:00:00.000Z',
    ]);
  });
});
