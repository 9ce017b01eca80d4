import { z } from 'zod';
import { BOOKING_STATUSES, CALENDAR_SYNC_STATUSES } from '../storage/schema.js';

/** The Booking resource of api.md. One schema: HTTP answers it, MCP declares it as output. */
export const bookingSchema = z.object({
  uid: z.string(),
  version: z.int(),
  event_type_id: z.string(),
  event_type_slug: z.string(),
  title: z.string(),
  status: z.enum(BOOKING_STATUSES),
  start_at: z.string(),
  end_at: z.string(),
  timezone: z.string(),
  host: z.object({ user_id: z.string(), username: z.string(), email: z.string() }),
  attendees: z.array(z.object({ email: z.string(), name: z.string(), timezone: z.string() })),
  guests: z.array(z.object({ email: z.string(), name: z.string().optional() })),
  location: z.object({
    type: z.enum(['conference', 'link', 'phone', 'in_person']),
    url: z.string().nullable(),
    value: z.string().nullable(),
  }),
  metadata: z.record(z.string(), z.unknown()),
  responses: z.record(z.string(), z.unknown()).nullable(),
  calendar_sync_status: z.enum(CALENDAR_SYNC_STATUSES),
  calendar_event_id: z.string(),
  rescheduled_from_uid: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  cancellation_reason: z.string().nullable(),
  no_show_at: z.string().nullable(),
  no_show_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type Booking = z.infer<typeof bookingSchema>;
