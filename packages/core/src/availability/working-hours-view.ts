import { z } from 'zod';
import { type Schedule, scheduleSchema, type Weekday } from '../event-types/schedule.js';
import { shownInstant } from '../validation/fields.js';
import { AROUND_THE_CLOCK } from './working-hours.js';

// docs/api/availability.md "The working-hours document": what GET answers,
// every write answers, and `availability.updated` carries.

/** The days in the order the document shows them: the working week first. */
const SHOWN_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly Weekday[];

const hours = z.array(z.tuple([z.string(), z.string()])).meta({ description: '[from, to] pairs HH:MM, sorted and merged.' });

export const workingHoursSchema = z.object({
  user_id: z.string(),
  timezone: z
    .string()
    .nullable()
    .meta({ description: "The IANA zone the hours are read in; null: the person's own zone, following it when it changes." }),
  weekly: z.object(Object.fromEntries(SHOWN_DAYS.map((d) => [d, hours])) as Record<(typeof SHOWN_DAYS)[number], typeof hours>),
  overrides: z.array(z.object({ date: z.string(), intervals: hours })).meta({ description: 'By date; intervals [] is a day off.' }),
  default: z.boolean().meta({ description: 'True: none written; these are the hours used (around the clock).' }),
  version: z.int().meta({ description: 'If-Match of a replace; 0 until first written. Shown as ETag.' }),
  updated_at: shownInstant.nullable(),
});
export type WorkingHours = z.infer<typeof workingHoursSchema>;

/** What the users row holds of a person's hours. */
export interface StoredHours {
  readonly id: string;
  readonly schedule_json: string | null;
  readonly schedule_version: number;
  readonly schedule_updated_at: string | null;
}

/**
 * The schedule stored, or null. Read through the one schema, so hours
 * written before its rules (unsorted, overlapping) show as they are used;
 * one it refuses outright shows as stored rather than failing the read.
 */
export function storedSchedule(row: StoredHours): Schedule | null {
  // Stryker disable next-line ConditionalExpression: equivalent: JSON.parse(null) reads the text "null" as null, which the schema refuses, so the fallback answers the same null (the check spares the parse).
  if (row.schedule_json === null) return null;
  const stored: unknown = JSON.parse(row.schedule_json);
  const result = scheduleSchema.safeParse(stored);
  return result.success ? result.data : (stored as Schedule);
}

/** The schedule availability uses for this row: the stored one, else around the clock. */
export function scheduleInUse(row: StoredHours): Schedule {
  return storedSchedule(row) ?? AROUND_THE_CLOCK;
}

/** The document of a person's hours; a day without hours shows `[]`. */
export function toWorkingHours(row: StoredHours): WorkingHours {
  const schedule = scheduleInUse(row);
  return {
    user_id: row.id,
    timezone: schedule.timezone ?? null,
    weekly: Object.fromEntries(SHOWN_DAYS.map((d) => [d, schedule.weekly[d] ?? []])) as WorkingHours['weekly'],
    overrides: schedule.overrides,
    default: row.schedule_json === null,
    version: row.schedule_version,
    updated_at: row.schedule_updated_at,
  };
}
