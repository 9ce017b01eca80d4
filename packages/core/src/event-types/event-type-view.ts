import { z } from 'zod';
import { reminderViewSchema } from '../reminders/reminder-rules.js';
import { ON_OFF, SCHEDULINGS, VISIBILITIES } from '../storage/schema.js';
import { shownInstant } from '../validation/fields.js';
import { eventTypeLocationSchema } from './event-type-fields.js';
import { questionSchema } from './questions.js';

/** An event type as `GET /v1/event-types/:id`, its writes and its webhook events show it: every field, its owner and its version. */
export const eventTypeSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  owner: z.object({ user_id: z.string(), username: z.string() }),
  duration_minutes: z.int(),
  slot_interval_minutes: z.int(),
  buffer_before_minutes: z.int(),
  buffer_after_minutes: z.int(),
  minimum_notice_minutes: z.int(),
  cancel_notice_minutes: z.int(),
  reschedule_notice_minutes: z.int(),
  future_limit_days: z.int(),
  status: z.enum(ON_OFF),
  recurring: z.enum(ON_OFF),
  allow_reschedule: z.boolean(),
  requires_confirmation: z.boolean(),
  attendee_mail: z.boolean(),
  // A plain union: its JSON Schema is anyOf, as every union an answer shows (a discriminated one is oneOf).
  location: z.union(eventTypeLocationSchema.options),
  visibility: z.enum(VISIBILITIES),
  max_bookings_per_day: z.int().nullable(),
  max_bookings_per_week: z.int().nullable(),
  seats: z.int().nullable(),
  scheduling: z.enum(SCHEDULINGS),
  hosts: z
    .array(z.object({ user_id: z.string(), weight: z.int(), priority: z.int(), fixed: z.boolean() }))
    .meta({ description: 'The pool of a team type; empty for a single host’s type.' }),
  booking_url: z.string().nullable().meta({
    description: 'Its booking page, where anyone with the link books it; null when it is private or deleted, or no server serves pages.',
  }),
  questions: z.array(questionSchema),
  reminders: z.array(reminderViewSchema),
  version: z.int(),
  created_at: shownInstant,
  updated_at: shownInstant,
  archived_at: shownInstant.nullable().meta({ description: 'When it was deleted (archived); null while it is live.' }),
});
export type EventType = z.infer<typeof eventTypeSchema>;
