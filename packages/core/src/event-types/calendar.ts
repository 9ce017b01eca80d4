import { z } from 'zod';
import { parseInstant, toTimestamp } from '../time.js';
import { fileInstant } from '../validation/fields.js';

// A host's conflict calendars: availability reads their busy times, the
// workspace file writes them. Declared here, beside the HostRecord that
// carries them (resolve-event-type.ts), the lowest layer that holds one.

/** A calendar on a CalDAV server, or one of them: names of calendars there are their display names or their URLs. */
export const calendarName = z.string().trim().min(1).max(500);

/**
 * A CalDAV account (RFC 4791): busy times are read from some of its
 * calendars, and bookings are written to one. The password is never in the
 * file: `password_env` names the environment variable that holds it. An
 * account added through the API instead keeps it sealed (`password_sealed`,
 * encrypted with the server's calendar key) and has an `id`.
 */
export const caldavCalendarSchema = z
  .object({
    kind: z.literal('caldav'),
    /** Set on accounts added through the API or CLI, which can be removed by it; absent for the workspace file's own. */
    id: z
      .string()
      .regex(/^cal_[A-Za-z0-9_-]{8,64}$/)
      .optional(),
    /** The server, a principal or a calendar URL: the principal and calendar home are discovered from it (RFC 6764, RFC 4791 §6.2). */
    url: z.url({ protocol: /^https?$/ }).max(2000),
    username: z.string().min(1).max(256),
    password_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .max(128)
      .optional(),
    password_sealed: z.string().max(4096).optional(),
    /** Calendars whose events block time; every event calendar of the account when absent. */
    busy_calendars: z.array(calendarName).min(1).max(50).optional(),
    /** The calendar new bookings are written to: its first event calendar when absent, none (read only) when null. */
    book_into: calendarName.nullable().optional(),
    /** When an account added through the API was added; absent for the workspace file's own. */
    created_at: z.string().max(40).optional(),
  })
  .refine((c) => (c.password_env === undefined) !== (c.password_sealed === undefined), {
    message: 'give the password as password_env (the name of an environment variable that holds it)',
    path: ['password_env'],
  });

export const calendarSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('static'),
    /** Whether bookings may be written to it; a static calendar is kept by the service itself, so yes unless said. */
    writable: z.boolean().default(true),
    busy: z.array(
      z
        .object({ start: fileInstant, end: fileInstant })
        .refine((b) => parseInstant(b.start)!.epochMs < parseInstant(b.end)!.epochMs, 'busy time must end after it starts')
        // Stored in the canonical form, so that reading availability is a cheap Date.parse.
        .transform((b) => ({ start: toTimestamp(parseInstant(b.start)!.epochMs), end: toTimestamp(parseInstant(b.end)!.epochMs) })),
    ),
  }),
  // A feed is read, never written.
  z.object({ kind: z.literal('ics'), url: z.url({ protocol: /^https?$/ }), writable: z.literal(false).default(false) }),
  caldavCalendarSchema,
]);
export type Calendar = z.infer<typeof calendarSchema>;
export type CalDavCalendar = Extract<Calendar, { kind: 'caldav' }>;

/** Whether new bookings of a host with this calendar are written to it. */
export function receivesBookings(calendar: Calendar): boolean {
  return calendar.kind === 'caldav' ? calendar.book_into !== null : calendar.writable;
}
