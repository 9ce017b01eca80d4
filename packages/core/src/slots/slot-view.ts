import { z } from 'zod';
import { shownInstant } from '../validation/fields.js';

/** The answer of `GET /v1/slots` (docs/api/endpoints.md "Slots"). */
export const slotListSchema = z.object({
  event_type_id: z.string(),
  timezone: z.string(),
  computed_at: shownInstant,
  slots: z.array(
    z.object({
      start: shownInstant,
      end: shownInstant,
      available: z.literal(true),
      seats_left: z.int().optional().meta({ description: 'Seated types only.' }),
    }),
  ),
});
export type SlotList = z.infer<typeof slotListSchema>;

export const UNAVAILABLE_REASONS = [
  'event_type_inactive',
  'in_past',
  'outside_minimum_notice',
  'outside_future_limit',
  'slot_busy',
] as const;

/**
 * The answer of `GET /v1/slots/check`: `{ available: true, duration_minutes }`
 * or `{ available: false, reason, next_available }`. One object with optional
 * fields, so that it is a JSON object schema for MCP as well.
 */
export const slotCheckSchema = z.object({
  available: z.boolean(),
  duration_minutes: z.int().optional(),
  reason: z.enum(UNAVAILABLE_REASONS).optional(),
  next_available: shownInstant.nullable().optional().meta({ description: 'The first free start in the 7 days after the checked end.' }),
});
export type SlotCheck =
  | { available: true; duration_minutes: number }
  | { available: false; reason: (typeof UNAVAILABLE_REASONS)[number]; next_available: string | null };
