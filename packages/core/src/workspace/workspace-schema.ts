import { z } from 'zod';
import { SCOPES } from '../auth/scopes.js';
import { calendarSchema } from '../event-types/calendar.js';
import { eventTypeDeclaration } from '../event-types/event-type-fields.js';
import { scheduleSchema } from '../event-types/schedule.js';
import { clientRegistrationSchema } from '../oauth/oauth-clients.js';
import { personEmail, personName, personReminders, personTimeZone, role, username } from '../people/person-fields.js';
import { limitsSchema } from '../rate-limit/limits.js';
import { BOOKING_STATUSES } from '../storage/schema.js';
import { isTimeZone } from '../time.js';
import { attendee, fileInstant, uuid } from '../validation/fields.js';

/**
 * The workspace file of docs/workspace.md. Unknown fields are ignored, so a file
 * written for a later version still loads; every field named there is kept.
 */

const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone name');
/** A civil date that is a Monday (the weekday of its UTC midnight). */
const mondayDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((date) => new Date(`${date}T00:00:00Z`).getUTCDay() === 1, 'must be a Monday');
/** A username or id naming another entry. */
const reference = z.string().min(1);

// A user's fields are the API's (people/person-fields.ts): one validation for a file and a request.
const userSchema = z.object({
  id: uuid.optional(),
  username,
  email: personEmail,
  name: personName.optional(),
  timezone: personTimeZone.default('UTC'),
  role: role.default('user'),
  manages: z.array(reference).default([]),
  schedule: scheduleSchema.optional(),
  calendars: z.array(calendarSchema).default([]),
  reminders: personReminders.default(true),
});

// The API's own fields and defaults (event-type-fields.ts), plus the file's id and owner reference.
const eventTypeSchema = eventTypeDeclaration.extend({
  id: uuid.optional(),
  owner: reference,
});

const tokenSchema = z.object({
  name: z.string().min(1),
  user: reference,
  secret: z.string().min(16, 'must be at least 16 characters'),
  scopes: z.array(z.enum(SCOPES)),
  /** Makes the token an OAuth client's access for the user (its own rate-limit bucket). */
  oauth_client_id: z.string().min(1).optional(),
  expires_at: fileInstant.optional(),
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
  start: fileInstant,
  timezone: timeZone.optional(),
  attendee: attendeeSchema,
  guests: z.array(z.union([z.email(), z.object({ email: z.email(), name: z.string().optional() })])).default([]),
  status: z.enum(BOOKING_STATUSES).default('confirmed'),
  location: locationSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  responses: z.record(z.string(), z.unknown()).optional(),
  cancellation_reason: z.string().optional(),
  cancelled_at: fileInstant.optional(),
});

/**
 * An app registered ahead of time (docs/oauth.md): always public, since a
 * secret does not belong in a file that is committed; confidential clients
 * are made with `schedule oauth-clients create --confidential`.
 */
const oauthClientSchema = z.object({
  client_id: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be 1 to 100 letters, digits, dot, dash or underscore'),
  client_name: clientRegistrationSchema.shape.client_name,
  redirect_uris: clientRegistrationSchema.shape.redirect_uris,
});

export const workspaceSchema = z.object({
  /**
   * A workspace for demonstrations: its token secrets are published, so a
   * front end must never load it into a database that serves anyone (the
   * CLI loads it only into a throw-away database, with --demo). As an
   * object, `week_of` is the Monday of the week its dates were written for:
   * the CLI moves every date by whole weeks so that week is the current one,
   * and the demo works on whatever day it is started.
   */
  demo: z.union([z.boolean(), z.object({ week_of: mondayDate })]).default(false),
  organization: z.object({ name: z.string().min(1) }).default({ name: 'Workspace' }),
  /** false: no mail to attendees anywhere in the workspace (docs/mail.md); hosts' mail still goes. */
  attendee_mail: z.boolean().default(true),
  limits: limitsSchema.optional(),
  users: z.array(userSchema).default([]),
  event_types: z.array(eventTypeSchema).default([]),
  tokens: z.array(tokenSchema).default([]),
  bookings: z.array(bookingSchema).default([]),
  oauth_clients: z.array(oauthClientSchema).default([]),
});

export type Workspace = z.infer<typeof workspaceSchema>;
export type WorkspaceUser = Workspace['users'][number];
export type WorkspaceEventType = Workspace['event_types'][number];
export type WorkspaceToken = Workspace['tokens'][number];
export type WorkspaceBooking = Workspace['bookings'][number];
export type WorkspaceOAuthClient = Workspace['oauth_clients'][number];
