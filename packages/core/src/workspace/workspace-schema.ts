import { z } from 'zod';
import { ROLES } from '../auth/roles.js';
import { SCOPES } from '../auth/scopes.js';
import { questionSchema } from '../event-types/questions.js';
import { BOOKING_STATUSES, ON_OFF } from '../storage/schema.js';
import { isTimeZone, parseInstant, toTimestamp } from '../time.js';
import { attendee, uuid } from '../validation/fields.js';

/**
 * The workspace file of workspace.md. Unknown fields are ignored, so a file
 * written for a later version still loads; every field named there is kept.
 */

const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone name');
const instant = z.string().refine((s) => parseInstant(s) !== undefined, 'must be an ISO 8601 timestamp');
const civilDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const wallClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be HH:MM (24:00 allowed as an end)');
/** A username or id naming another entry. */
const reference = z.string().min(1);

const interval = z
  .tuple([wallClock, wallClock])
  .refine(([from, to]) => from < to, 'an interval must end after it starts')
  .refine(([from]) => from !== '24:00', 'an interval cannot start at 24:00');

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const scheduleSchema = z.object({
  timezone: timeZone.optional(),
  weekly: z.partialRecord(z.enum(WEEKDAYS), z.array(interval)).default({}),
  overrides: z.array(z.object({ date: civilDate, intervals: z.array(interval) })).default([]),
});

export const calendarSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('static'),
    /** Whether bookings may be written to it; a static calendar is kept by the service itself, so yes unless said. */
    writable: z.boolean().default(true),
    busy: z.array(
      z
        .object({ start: instant, end: instant })
        .refine((b) => parseInstant(b.start)!.epochMs < parseInstant(b.end)!.epochMs, 'busy time must end after it starts')
        // Stored in the canonical form, so that reading availability is a cheap Date.parse.
        .transform((b) => ({ start: toTimestamp(parseInstant(b.start)!.epochMs), end: toTimestamp(parseInstant(b.end)!.epochMs) })),
    ),
  }),
  // A feed is read, never written.
  z.object({ kind: z.literal('ics'), url: z.url({ protocol: /^https?$/ }), writable: z.literal(false).default(false) }),
]);

export const limitsSchema = z.object({
  pat_per_minute: z.int().positive().default(120),
  oauth_per_minute: z.int().positive().default(120),
  anonymous_per_minute: z.int().positive().default(30),
});
export type Limits = z.infer<typeof limitsSchema>;
export const DEFAULT_LIMITS: Limits = { pat_per_minute: 120, oauth_per_minute: 120, anonymous_per_minute: 30 };

const userSchema = z.object({
  id: uuid.optional(),
  username: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/i, 'must be letters, digits, dot, dash or underscore'),
  email: z.email(),
  name: z.string().min(1).optional(),
  timezone: timeZone.default('UTC'),
  role: z.enum(ROLES).default('user'),
  manages: z.array(reference).default([]),
  schedule: scheduleSchema.optional(),
  calendars: z.array(calendarSchema).default([]),
});

const eventTypeSchema = z.object({
  id: uuid.optional(),
  owner: reference,
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'must be lowercase letters, digits and dashes'),
  name: z.string().min(1),
  duration_minutes: z.int().min(1).max(1440),
  status: z.enum(ON_OFF).default('on'),
  minimum_notice_minutes: z.int().min(0).default(0),
  future_limit_days: z.int().min(1).default(60),
  recurring: z.enum(ON_OFF).default('on'),
  allow_reschedule: z.boolean().default(true),
  buffer_before_minutes: z.int().min(0).default(0),
  buffer_after_minutes: z.int().min(0).default(0),
  slot_interval_minutes: z.int().min(1).max(1440).optional(),
  questions: z.array(questionSchema).default([]),
});

const tokenSchema = z.object({
  name: z.string().min(1),
  user: reference,
  secret: z.string().min(16, 'must be at least 16 characters'),
  scopes: z.array(z.enum(SCOPES)),
  /** Makes the token an OAuth client's access for the user (its own rate-limit bucket). */
  oauth_client_id: z.string().min(1).optional(),
  expires_at: instant.optional(),
  revoked: z.boolean().default(false),
});

// The API's attendee, with a time zone; the email keeps zod's own wording, as the users' emails do.
const attendeeSchema = attendee.extend({ email: z.email(), timezone: timeZone.optional() });

const locationSchema = z.object({
  type: z.enum(['conference', 'link', 'phone', 'in_person']),
  url: z.string().nullable().default(null),
  value: z.string().nullable().default(null),
});

const bookingSchema = z.object({
  uid: uuid.optional(),
  event_type: reference,
  host: reference.optional(),
  start: instant,
  timezone: timeZone.optional(),
  attendee: attendeeSchema,
  guests: z.array(z.union([z.email(), z.object({ email: z.email(), name: z.string().optional() })])).default([]),
  status: z.enum(BOOKING_STATUSES).default('confirmed'),
  location: locationSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  responses: z.record(z.string(), z.unknown()).optional(),
  cancellation_reason: z.string().optional(),
  cancelled_at: instant.optional(),
});

export const workspaceSchema = z.object({
  /**
   * A workspace for demonstrations: its token secrets are published, so a
   * front end must never load it into a database that serves anyone (the
   * CLI loads it only into a throw-away database, with --demo).
   */
  demo: z.boolean().default(false),
  organization: z.object({ name: z.string().min(1) }).default({ name: 'Workspace' }),
  limits: limitsSchema.optional(),
  users: z.array(userSchema).default([]),
  event_types: z.array(eventTypeSchema).default([]),
  tokens: z.array(tokenSchema).default([]),
  bookings: z.array(bookingSchema).default([]),
});

export type Workspace = z.infer<typeof workspaceSchema>;
export type WorkspaceUser = Workspace['users'][number];
export type WorkspaceEventType = Workspace['event_types'][number];
export type WorkspaceBooking = Workspace['bookings'][number];
export type Schedule = z.infer<typeof scheduleSchema>;
export type Calendar = z.infer<typeof calendarSchema>;
