import { z } from 'zod';
import { civilDate, timeZone } from '../validation/fields.js';

// A host's working hours: availability reads them, the workspace file and
// the API write them (docs/api/availability.md). Declared here, beside the
// HostRecord that carries them (resolve-event-type.ts), the lowest layer
// that holds one, so both writers take the one rule.

const WALL_CLOCK = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const wallClock = z.string().regex(WALL_CLOCK, 'must be HH:MM (24:00 allowed as an end)');

const interval = z
  .tuple([wallClock, wallClock])
  // Order is judged only between two well-formed times: "9:00" is refused as such, not also as ending first.
  .refine(([from, to]) => !WALL_CLOCK.test(from) || !WALL_CLOCK.test(to) || from < to, 'an interval must end after it starts')
  .refine(([from]) => from !== '24:00', 'an interval cannot start at 24:00');

/** Most intervals one day may list; a split day rarely has more than three. */
export const MAX_INTERVALS_A_DAY = 12;
/** Most date overrides a schedule may hold: a year of them and more (issue 32's benchmark host has 200). */
export const MAX_OVERRIDES = 500;

type Hours = [string, string][];

/**
 * A day's intervals sorted, with overlapping and touching ones merged:
 * availability merges them when it reads working time (working-hours.ts), so
 * the merged form means exactly what was written, and it is what is stored
 * and shown. HH:MM text sorts as time does ("24:00" last).
 */
export function mergeDay(intervals: Hours): Hours {
  const merged: Hours = [];
  // The default sort compares each pair as its text "HH:MM,HH:MM", which orders by start as time does.
  for (const [from, to] of [...intervals].sort()) {
    const last = merged.at(-1);
    if (last === undefined || from > last[1]) merged.push([from, to]);
    else {
      // Stryker disable next-line EqualityOperator: ">=" rewrites an equal end with the same text; the line's "<=" is killed (schedule-schema.test.ts).
      if (to > last[1]) last[1] = to;
    }
  }
  return merged;
}

// Each transform carries its own description: JSON Schema is derived from
// the input side, and zod-openapi wants a transform described to render it.
const day = z
  .array(interval)
  .max(MAX_INTERVALS_A_DAY)
  .transform(mergeDay)
  .meta({ description: '[from, to] pairs HH:MM (24:00 as an end); overlapping or touching ones are merged.' });

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The weekly hours by day (`mon`…`sun`); a day absent or `[]` has none. */
export const weeklyHours = z.partialRecord(z.enum(WEEKDAYS), day);

/** One date whose hours differ from its weekday's; `[]` is a day off. */
export const dateOverride = z.object({ date: civilDate.meta({ description: 'The day, in the schedule zone.' }), intervals: day });

// Stryker disable next-line EqualityOperator: "<=" differs only on a tie, and a repeated date is refused before the sort runs; the line's ">=" is killed (schedule-schema.test.ts).
const byDate = (a: { date: string }, b: { date: string }) => (a.date < b.date ? -1 : 1);

/** A schedule's overrides: each date once, kept in date order. */
export const dateOverrides = z
  .array(dateOverride)
  .max(MAX_OVERRIDES)
  .superRefine((overrides, ctx) => {
    const seen = new Set<string>();
    for (const [i, { date }] of overrides.entries()) {
      // Stryker disable next-line StringLiteral: equivalent: an issue's code only picks plain words (issue-words.ts), and an unknown code keeps the issue's own message as 'custom' does; the line's other strings (path, message) are killed.
      if (seen.has(date)) ctx.addIssue({ code: 'custom', path: [i, 'date'], message: 'names a date already overridden' });
      seen.add(date);
    }
  })
  .transform((overrides) => [...overrides].sort(byDate))
  .meta({ description: 'Dates with other hours, each once; intervals [] is a day off.' });

/** Weekly hours in the host's zone (or its own), and dates whose hours differ. */
export const scheduleSchema = z.object({
  timezone: timeZone.optional(),
  weekly: weeklyHours.default({}),
  overrides: dateOverrides.default([]),
});
export type Schedule = z.infer<typeof scheduleSchema>;
