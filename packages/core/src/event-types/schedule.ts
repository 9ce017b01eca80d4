import { z } from 'zod';
import { timeZone } from '../validation/fields.js';

// A host's working hours: availability reads them, the workspace file writes
// them. Declared here, beside the HostRecord that carries them
// (resolve-event-type.ts), the lowest layer that holds one.

const civilDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const wallClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be HH:MM (24:00 allowed as an end)');

const interval = z
  .tuple([wallClock, wallClock])
  .refine(([from, to]) => from < to, 'an interval must end after it starts')
  .refine(([from]) => from !== '24:00', 'an interval cannot start at 24:00');

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Weekly hours in the host's zone (or its own), and dates whose hours differ. */
export const scheduleSchema = z.object({
  timezone: timeZone.optional(),
  weekly: z.partialRecord(z.enum(WEEKDAYS), z.array(interval)).default({}),
  overrides: z.array(z.object({ date: civilDate, intervals: z.array(interval) })).default([]),
});
export type Schedule = z.infer<typeof scheduleSchema>;
