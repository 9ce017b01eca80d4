import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import type { EventTypeRef } from '../event-types/resolve-event-type.js';
import { isUuid } from '../ids.js';
import { email, instant, jsonObject, timeZone } from '../validation/fields.js';

// Request bodies of the booking writes (api.md "Bookings"). One schema each,
// shared by every front end; MCP derives its tool input from them.

export const createBookingBodySchema = z.object({
  event_type_id: z.string().refine(isUuid, 'must be a UUID').optional(),
  username: z.string().min(1).optional(),
  event_slug: z.string().min(1).optional(),
  start: instant,
  timezone: timeZone.optional(),
  attendee: z.object({
    email,
    name: z.string().min(1).max(255).optional(),
    first_name: z.string().max(127).optional(),
    last_name: z.string().max(127).optional(),
    phone: z.string().max(64).optional(),
    timezone: timeZone.optional(),
    sms_opt_in: z.boolean().default(false),
  }),
  guests: z
    .array(z.union([email, z.object({ email, name: z.string().max(255).optional() })]))
    .max(50)
    .default([]),
  responses: jsonObject.optional(),
  metadata: jsonObject.default({}),
  utm_source: z.string().max(255).optional(),
  utm_medium: z.string().max(255).optional(),
  utm_campaign: z.string().max(255).optional(),
});
export type CreateBookingBody = z.output<typeof createBookingBodySchema>;

const reason = z.string().max(1024, 'must be at most 1024 characters');

export const cancelBookingBodySchema = z.object({ reason: reason.optional() });
export type CancelBookingBody = z.output<typeof cancelBookingBodySchema>;

export const rescheduleBookingBodySchema = z.object({ start: instant, timezone: timeZone.optional(), reason: reason.optional() });
export type RescheduleBookingBody = z.output<typeof rescheduleBookingBodySchema>;

/** The event type a create names; `validation_error` when it names none. */
export function eventTypeRefOf(body: {
  event_type_id?: string | undefined;
  username?: string | undefined;
  event_slug?: string | undefined;
}): EventTypeRef {
  if (body.event_type_id !== undefined) return { eventTypeId: body.event_type_id };
  if (body.username !== undefined && body.event_slug !== undefined) return { username: body.username, eventSlug: body.event_slug };
  throw new ScheduleError('validation_error', 'Name the event type: event_type_id, or both username and event_slug.', {
    fields: ['event_type_id'],
  });
}
