import { z } from 'zod';
import { BOOKING_STATUSES, SCHEDULINGS } from '../storage/schema.js';
import { shownInstant } from '../validation/fields.js';

/** Why `find_times` holds none of its options (docs/api/times.md). */
export const NOT_HELD_REASONS = ['not_asked', 'team_type', 'no_booking_scope', 'hold_limit_reached', 'slot_taken'] as const;
export type NotHeldReason = (typeof NOT_HELD_REASONS)[number];

/** One time `find_times` offers, in both zones. */
export const timeOptionSchema = z.object({
  option_id: z.string().meta({ description: 'Pass to book_time.' }),
  start: shownInstant,
  end: shownInstant,
  attendee_time: z.string().meta({ description: 'The start as the attendee reads it: weekday, date, time, zone and offset.' }),
  host_time: z.string().meta({ description: 'The start as the host reads it.' }),
  held_until: shownInstant.nullable().meta({ description: 'Held for you until then; null: not held.' }),
});

/** What `POST /v1/times/find` answers. */
export const timeOptionsSchema = z.object({
  event_type: z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    duration_minutes: z.int(),
    scheduling: z.enum(SCHEDULINGS),
  }),
  host: z
    .object({ username: z.string(), name: z.string() })
    .meta({ description: "The type's owner (a team type's host is chosen at booking)." }),
  host_timezone: z.string(),
  attendee_timezone: z.string(),
  from: z.string().meta({ description: 'The first day searched, in the attendee zone.' }),
  to: z.string().meta({ description: 'The last day searched, inclusive.' }),
  part_of_day: z.enum(['any', 'morning', 'afternoon', 'evening']),
  options: z.array(timeOptionSchema),
  not_held_reason: z.enum(NOT_HELD_REASONS).nullable().meta({ description: 'Why the options are not held; null when they are.' }),
});
export type TimeOptions = z.infer<typeof timeOptionsSchema>;
export type TimeOption = z.infer<typeof timeOptionSchema>;

/** A note on a booking a model should tell its user about; the booking is made. */
export const bookingWarningSchema = z.object({
  code: z.enum(['attendee_booked_same_day']),
  message: z.string(),
});
export type BookingWarning = z.infer<typeof bookingWarningSchema>;

/**
 * What `POST /v1/times/book` answers: the booking as a person needs it
 * told, in both zones, and what to warn them about; `get_booking` has the
 * rest of it.
 */
export const bookedTimeSchema = z.object({
  uid: z.string(),
  version: z.int(),
  status: z.enum(BOOKING_STATUSES),
  title: z.string(),
  start_at: shownInstant,
  end_at: shownInstant,
  attendee_time: z.string(),
  host_time: z.string(),
  hosts: z.array(z.string()).meta({ description: 'Usernames of everyone who hosts it, the host first.' }),
  location_url: z.string().nullable(),
  warnings: z.array(bookingWarningSchema),
});
export type BookedTime = z.infer<typeof bookedTimeSchema>;
