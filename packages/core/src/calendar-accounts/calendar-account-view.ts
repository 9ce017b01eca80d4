import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CalDavCalendar } from '../event-types/calendar.js';
import { urlShown } from '../url-shown.js';
import { shownInstant } from '../validation/fields.js';

// A CalDAV account as every front end shows it. Neither the password nor
// its sealed copy is ever part of it, nor credentials a URL may carry.

export const CALENDAR_ACCOUNT_SOURCES = ['api', 'workspace'] as const;
export type CalendarAccountSource = (typeof CALENDAR_ACCOUNT_SOURCES)[number];

export const calendarAccountSchema = z
  .object({
    id: z.string().meta({ description: 'The account’s id, `cal_…`.', examples: ['cal_3f2a9c0e8b7d4e61a5c2f0d9b8e7a6c5'] }),
    kind: z.enum(['caldav']).meta({ description: 'The kind of account; `caldav` for now.' }),
    user_id: z.string().meta({ description: 'Whose calendars these are.' }),
    url: z.string().meta({ description: 'The URL it was added with (server, principal or calendar), without credentials.' }),
    username: z.string(),
    busy_calendars: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The calendars whose events block time; null: every event calendar of the account.' }),
    book_into: z.string().nullable().meta({
      description:
        'The calendar new bookings are written to; null with `receives_bookings` true: the first event calendar the server lists.',
    }),
    receives_bookings: z
      .boolean()
      .meta({ description: 'Whether bookings are written to this account at all (`book_into: null` was given: no).' }),
    source: z.enum(CALENDAR_ACCOUNT_SOURCES).meta({
      description:
        '`api`: added through the API or CLI, its password sealed; `workspace`: from the workspace file, its password in an environment variable.',
    }),
    created_at: shownInstant.nullable().meta({ description: 'When it was added through the API; null for the workspace file’s own.' }),
  })
  .meta({ description: 'A CalDAV account of a user: where busy times are read and bookings written. Its password is never shown.' });
export type CalendarAccount = z.infer<typeof calendarAccountSchema>;

export const calendarAccountTestSchema = z
  .object({
    id: z.string(),
    calendars: z
      .array(
        z.object({
          name: z.string().meta({ description: 'The calendar’s display name, or its URL when it has none.' }),
          url: z.string(),
          busy: z.boolean().meta({ description: 'Its events block time.' }),
          book_into: z.boolean().meta({ description: 'New bookings are written to it.' }),
        }),
      )
      .meta({ description: 'Every event calendar the server lists for the account now.' }),
  })
  .meta({ description: 'What reading a CalDAV account now found.' });
export type CalendarAccountTest = z.infer<typeof calendarAccountTestSchema>;

/** Where an account came from: the API seals its password, the workspace file names an environment variable. */
export function sourceOf(calendar: CalDavCalendar): CalendarAccountSource {
  return calendar.password_sealed !== undefined ? 'api' : 'workspace';
}

/**
 * The id of an account: its own (accounts added through the API, or given in
 * the file), else one derived from its user, URL and username, which stays
 * the same across reloads of the file.
 */
export function accountIdOf(userId: string, calendar: CalDavCalendar): string {
  if (calendar.id !== undefined) return calendar.id;
  const digest = createHash('sha256').update(`${userId}\n${calendar.url}\n${calendar.username}`).digest('base64url');
  return `cal_${digest.slice(0, 32)}`;
}

export function toCalendarAccount(userId: string, calendar: CalDavCalendar): CalendarAccount {
  return {
    id: accountIdOf(userId, calendar),
    kind: 'caldav',
    user_id: userId,
    url: urlShown(calendar.url),
    username: calendar.username,
    busy_calendars: calendar.busy_calendars ?? null,
    book_into: calendar.book_into ?? null,
    receives_bookings: calendar.book_into !== null,
    source: sourceOf(calendar),
    created_at: calendar.created_at ?? null,
  };
}
