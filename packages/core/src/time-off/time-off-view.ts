import { z } from 'zod';
import type { TimeOffTable } from '../storage/schema.js';
import { shownInstant as instant } from '../validation/fields.js';

// A range of a host's time off (docs/api/time-off.md), as every front end shows it.

export const timeOffSchema = z
  .object({
    id: z.string().meta({ description: "The range's id." }),
    user_id: z.string().meta({ description: 'Whose time off it is.' }),
    start_at: instant.meta({ description: 'UTC, with milliseconds; the first instant off.' }),
    end_at: instant.meta({ description: 'UTC; the first instant back (exclusive).' }),
    reason: z.string().nullable(),
    created_at: instant,
    updated_at: instant,
    version: z.int().meta({ description: 'Starts at 1; each PATCH adds one. Shown as `ETag`.' }),
  })
  .meta({ description: 'Time off: busy time for every event type of the user.' });
export type TimeOff = z.infer<typeof timeOffSchema>;

export function toTimeOff(row: TimeOffTable): TimeOff {
  return {
    id: row.id,
    user_id: row.user_id,
    start_at: row.start_at,
    end_at: row.end_at,
    reason: row.reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}
