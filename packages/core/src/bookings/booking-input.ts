import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import type { EventTypeRef } from '../event-types/resolve-event-type.js';
import { isUuid } from '../ids.js';
import { isTimeZone, parseInstant } from '../time.js';

// Request bodies of the booking writes (api.md "Bookings"). One schema each,
// shared by every front end; MCP derives its tool input from them.

const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone name');
/** A date-time with its time of day; a bare date is not an instant to book. */
const instant = z.string().refine((s) => /T/.test(s) && parseInstant(s) !== undefined, 'must be an ISO 8601 date-time');
const jsonObject = z.record(z.string(), z.unknown(), { error: 'must be an object' });
const email = z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters');

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

function pathOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * Validates a body against its schema: `400 validation_error` with
 * `details.fields` naming each bad field; a present but malformed attendee
 * email is `400 attendee_email_invalid` (api.md "Errors"). A missing body
 * counts as `{}`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const value = body === undefined ? {} : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ScheduleError('validation_error', 'The body must be a JSON object.', { fields: [] });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((i) => pathOf(i.path)))];
  const attendee = (value as { attendee?: { email?: unknown } }).attendee;
  if (fields.includes('attendee.email') && typeof attendee?.email === 'string') {
    throw new ScheduleError('attendee_email_invalid', 'attendee.email must be an email address of at most 254 characters.', {
      fields: ['attendee.email'],
    });
  }
  const message = result.error.issues.map((i) => `${pathOf(i.path) || 'body'}: ${i.message}`).join('; ');
  throw new ScheduleError('validation_error', message, { fields });
}

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
