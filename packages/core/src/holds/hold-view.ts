import { z } from 'zod';
import type { HoldsTable } from '../storage/schema.js';
import { shownInstant } from '../validation/fields.js';

/** A hold as the API shows it (docs/api/holds.md). */
export const holdSchema = z.object({
  id: z.string().meta({ description: 'Pass as hold_id to create_booking.' }),
  event_type_id: z.string(),
  start: shownInstant,
  end: shownInstant,
  expires_at: shownInstant.meta({ description: 'From this instant the time is free for anyone again.' }),
  created_at: shownInstant,
});
export type Hold = z.infer<typeof holdSchema>;

export function toHold(row: HoldsTable): Hold {
  return {
    id: row.id,
    event_type_id: row.event_type_id,
    start: row.start_at,
    end: row.end_at,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}
