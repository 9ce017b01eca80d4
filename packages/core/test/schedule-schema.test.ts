import { describe, expect, it } from 'vitest';
import { mergeDay, scheduleSchema } from '../src/event-types/schedule.js';

// The working-hours schema (schedule.ts) on its own: which intervals it
// refuses and with which words, how a day's intervals are merged and in
// which order overrides are kept. The API's and the file's suites cover the
// same rules through their writers (availability-api, workspace).

/** Every problem of a schedule as `path: message`, in zod's order. */
function problemsOf(input: unknown): string[] {
  const parsed = scheduleSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('an interval of working hours', () => {
  it.each([
    ['one that ends first', ['10:00', '09:00'], ['weekly.mon.0: an interval must end after it starts']],
    ['one of no length', ['09:00', '09:00'], ['weekly.mon.0: an interval must end after it starts']],
    [
      'one from 24:00 to 24:00, which is also of no length',
      ['24:00', '24:00'],
      ['weekly.mon.0: an interval must end after it starts', 'weekly.mon.0: an interval cannot start at 24:00'],
    ],
    // A malformed time is refused as such, never also as ending first ("9:00" sorts after "08:00").
    ['a malformed start', ['9:00', '08:00'], ['weekly.mon.0.0: must be HH:MM (24:00 allowed as an end)']],
    ['a malformed end', ['09:00', '8:00'], ['weekly.mon.0.1: must be HH:MM (24:00 allowed as an end)']],
  ])('refuses %s', (_, interval, problems) => {
    expect(problemsOf({ weekly: { mon: [interval] } })).toEqual(problems);
  });

  it('refuses a start at 24:00 even when the end is too malformed to compare', () => {
    expect(problemsOf({ weekly: { mon: [['24:00', '25:00']] } })).toEqual([
      'weekly.mon.0.1: must be HH:MM (24:00 allowed as an end)',
      'weekly.mon.0: an interval cannot start at 24:00',
    ]);
  });

  it('takes one that ends at 24:00', () => {
    expect(scheduleSchema.parse({ weekly: { mon: [['22:00', '24:00']] } }).weekly).toEqual({ mon: [['22:00', '24:00']] });
  });
});

describe('mergeDay', () => {
  it('sorts the intervals by start', () => {
    expect(
      mergeDay([
        ['15:00', '16:00'],
        ['09:00', '10:00'],
        ['12:00', '13:00'],
      ]),
    ).toEqual([
      ['09:00', '10:00'],
      ['12:00', '13:00'],
      ['15:00', '16:00'],
    ]);
    expect(
      mergeDay([
        ['09:00', '10:00'],
        ['15:00', '16:00'],
        ['12:00', '13:00'],
        ['20:00', '24:00'],
        ['06:00', '07:00'],
      ]),
    ).toEqual([
      ['06:00', '07:00'],
      ['09:00', '10:00'],
      ['12:00', '13:00'],
      ['15:00', '16:00'],
      ['20:00', '24:00'],
    ]);
  });

  it('leaves the list it was given as it was', () => {
    const given: [string, string][] = [
      ['12:00', '13:00'],
      ['09:00', '10:00'],
    ];
    mergeDay(given);
    expect(given).toEqual([
      ['12:00', '13:00'],
      ['09:00', '10:00'],
    ]);
  });

  it('merges overlapping and touching intervals into the one they cover; one inside another adds nothing', () => {
    expect(
      mergeDay([
        ['10:00', '11:00'],
        ['09:00', '10:00'],
      ]),
    ).toEqual([['09:00', '11:00']]);
    expect(
      mergeDay([
        ['09:00', '12:00'],
        ['11:00', '13:00'],
      ]),
    ).toEqual([['09:00', '13:00']]);
    expect(
      mergeDay([
        ['09:00', '17:00'],
        ['10:00', '11:00'],
      ]),
    ).toEqual([['09:00', '17:00']]);
  });

  it('merges only with the latest interval kept', () => {
    expect(
      mergeDay([
        ['09:00', '10:00'],
        ['11:00', '12:00'],
        ['13:00', '14:00'],
        ['13:30', '15:00'],
      ]),
    ).toEqual([
      ['09:00', '10:00'],
      ['11:00', '12:00'],
      ['13:00', '15:00'],
    ]);
  });

  it('is what the schema stores for a day', () => {
    expect(
      scheduleSchema.parse({
        weekly: {
          tue: [
            ['13:00', '17:00'],
            ['09:00', '13:00'],
          ],
        },
      }).weekly,
    ).toEqual({ tue: [['09:00', '17:00']] });
  });
});

describe('date overrides', () => {
  it('are kept in date order', () => {
    const overrides = scheduleSchema.parse({
      overrides: [
        { date: '2026-03-05', intervals: [] },
        { date: '2026-01-02', intervals: [['09:00', '10:00']] },
        { date: '2026-02-01', intervals: [] },
        { date: '2026-12-24', intervals: [] },
        { date: '2026-01-01', intervals: [] },
      ],
    }).overrides;
    expect(overrides.map((o) => o.date)).toEqual(['2026-01-01', '2026-01-02', '2026-02-01', '2026-03-05', '2026-12-24']);
    expect(overrides[1]).toEqual({ date: '2026-01-02', intervals: [['09:00', '10:00']] });
  });

  it('name each date once: the second is refused at its date', () => {
    expect(
      problemsOf({
        overrides: [
          { date: '2026-03-05', intervals: [] },
          { date: '2026-03-06', intervals: [] },
          { date: '2026-03-05', intervals: [['09:00', '10:00']] },
        ],
      }),
    ).toEqual(['overrides.2.date: names a date already overridden']);
  });

  it('default to none, as the weekly hours do', () => {
    expect(scheduleSchema.parse({})).toEqual({ weekly: {}, overrides: [] });
  });
});
