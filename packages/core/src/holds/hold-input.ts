import { z } from 'zod';
import { eventSlug, eventTypeOwner, instant, uuid, WITH_OFFSET } from '../validation/fields.js';

/** docs/api/holds.md: how long a hold lives, in seconds, when the caller does not say. */
export const DEFAULT_HOLD_SECONDS = 600;
export const MIN_HOLD_SECONDS = 30;
export const MAX_HOLD_SECONDS = 1800;

/** The body of `POST /v1/holds`. */
export const createHoldBodySchema = z.object({
  event_type_id: uuid.optional().meta({ description: 'The event type; or username + event_slug.' }),
  username: eventTypeOwner.optional(),
  event_slug: eventSlug.optional(),
  start: instant.meta({ description: `A free slot's start. ${WITH_OFFSET}` }),
  ttl_seconds: z
    .int()
    .min(MIN_HOLD_SECONDS)
    .max(MAX_HOLD_SECONDS)
    .default(DEFAULT_HOLD_SECONDS)
    .meta({ description: `Seconds the time stays held (${MIN_HOLD_SECONDS}-${MAX_HOLD_SECONDS}, default ${DEFAULT_HOLD_SECONDS}).` }),
});
export type CreateHoldBody = z.output<typeof createHoldBodySchema>;
