import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import type { EventTypeRef } from '../event-types/resolve-event-type.js';
import { attendee, email, eventSlug, eventTypeOwner, instant, jsonObject, timeZone, uuid, WITH_OFFSET } from '../validation/fields.js';

// Request bodies of the booking writes (docs/api/endpoints.md "Bookings"). One schema each,
// shared by every front end; MCP derives its tool input from them.

const utm = z.string().max(255).optional().meta({ description: 'Merged into metadata.' });

export const createBookingBodySchema = z.object({
  event_type_id: uuid.optional().meta({ description: 'The event type; or username + event_slug.' }),
  username: eventTypeOwner.optional(),
  event_slug: eventSlug.optional(),
  start: instant.meta({ description: `A free slot's start. ${WITH_OFFSET}` }),
  hold_id: uuid.optional().meta({ description: 'Your hold of this start (create_hold).' }),
  host_user_id: uuid.optional().meta({ description: 'Team type: book this host of the pool (one you may act for).' }),
  timezone: timeZone.optional().meta({ description: 'IANA zone; default attendee.timezone, then UTC.' }),
  attendee: attendee
    .extend({
      timezone: timeZone.optional(),
      sms_opt_in: z.boolean().default(false).meta({ description: 'Agreed to text messages.' }),
    })
    .meta({ description: 'Who the meeting is with.' }),
  guests: z
    .array(z.union([email, z.object({ email, name: z.string().max(255).optional().meta({ description: 'Name.' }) })]))
    .max(50)
    .default([])
    .meta({ description: 'More invitees: emails or { email, name }.' }),
  responses: jsonObject.optional().meta({ description: 'Form answers by question id.' }),
  metadata: jsonObject.default({}).meta({ description: 'Free-form JSON; utm_* are merged in.' }),
  utm_source: utm,
  utm_medium: utm,
  utm_campaign: utm,
});
export type CreateBookingBody = z.output<typeof createBookingBodySchema>;

const reason = z.string().max(1024, 'must be at most 1024 characters').meta({ description: 'Why; passed on to those invited.' });

/** Passes the event type's cancel or reschedule notice (booking-notice.ts); a booking page's visitor cannot. */
const overrideNotice = z.boolean().optional().meta({ description: "true: pass the event type's notice (tokens only)." });

export const cancelBookingBodySchema = z.object({ reason: reason.optional(), override_notice: overrideNotice });
export type CancelBookingBody = z.output<typeof cancelBookingBodySchema>;

/** A decline's body: the same field as a cancel's, a schema of its own so each has its OpenAPI component. */
export const declineBookingBodySchema = z.object({ reason: reason.optional() });

export const rescheduleBookingBodySchema = z.object({
  start: instant.meta({ description: `The new start, a free slot. ${WITH_OFFSET}` }),
  timezone: timeZone.optional().meta({ description: 'New IANA zone; default the current one.' }),
  reason: reason.optional(),
  override_notice: overrideNotice,
});
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
