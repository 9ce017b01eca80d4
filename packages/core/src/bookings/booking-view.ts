import { z } from 'zod';
import { BOOKING_STATUSES, CALENDAR_SYNC_STATUSES } from '../storage/schema.js';
import { shownInstant as instant } from '../validation/fields.js';

/** The Booking resource of docs/api. One schema: HTTP answers it, MCP declares it as output. */
export const bookingSchema = z
  .object({
    uid: z.string().meta({ description: "The booking's id." }),
    version: z.int().meta({ description: 'Starts at 1; every change adds one. Shown as `ETag`.' }),
    event_type_id: z.string(),
    event_type_slug: z.string(),
    title: z.string(),
    status: z.enum(BOOKING_STATUSES),
    start_at: instant.meta({ description: 'UTC, with milliseconds.' }),
    end_at: instant.meta({ description: 'UTC; `end_at - start_at` is the duration it was booked for.' }),
    timezone: z.string().meta({ description: 'The IANA zone the meeting is shown in; it never changes the instants.' }),
    host: z.object({ user_id: z.string(), username: z.string(), email: z.string() }),
    hosts: z.array(z.object({ user_id: z.string(), username: z.string(), email: z.string() })).meta({
      description: 'Everyone who hosts it: `host` first, then a collective type’s other hosts or round robin’s fixed hosts.',
    }),
    attendees: z
      .array(z.object({ email: z.string(), name: z.string(), timezone: z.string() }))
      .meta({ description: 'The booker, first and only.' }),
    guests: z.array(z.object({ email: z.string(), name: z.string().optional() })),
    location: z
      .object({
        type: z.enum(['conference', 'link', 'phone', 'in_person']),
        url: z.string().nullable(),
        value: z.string().nullable(),
      })
      .meta({ description: '`conference` and `link` carry `url`; `phone` and `in_person` (imported bookings only) carry `value`.' }),
    metadata: z.record(z.string(), z.unknown()).meta({ description: 'Free JSON; UTM fields sent at creation are merged in.' }),
    responses: z.record(z.string(), z.unknown()).nullable().meta({ description: 'Booking-form answers by question id; null in lists.' }),
    calendar_sync_status: z.enum(CALENDAR_SYNC_STATUSES),
    calendar_event_id: z.string(),
    rescheduled_from_uid: z.string().nullable().meta({ description: 'The held occurrence a series booked this one to replace.' }),
    cancelled_at: instant.nullable(),
    cancellation_reason: z.string().nullable(),
    no_show_at: instant.nullable(),
    no_show_reason: z.string().nullable(),
    created_at: instant,
    updated_at: instant.meta({ description: 'Set by every change; the catch-up sweep pages by it.' }),
  })
  .meta({ description: 'One meeting between a host and an attendee on an event type: confirmed or canceled.' });

export type Booking = z.infer<typeof bookingSchema>;
