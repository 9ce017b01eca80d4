import { z } from 'zod';
import { calendarName } from '../event-types/calendar.js';
import { parseQuery } from '../pagination/query-params.js';
import { parseBody } from '../validation/parse-body.js';

const user = z
  .string()
  .min(1)
  .max(256)
  .meta({ description: 'Whose accounts: a user_id or username you may act for; yourself when left out.' });

/** The query of `GET /v1/calendars`. */
export const listCalendarAccountsQuerySchema = z.object({ user: user.optional() });
export type ListCalendarAccountsQuery = z.output<typeof listCalendarAccountsQuerySchema>;

export function parseListCalendarAccountsQuery(query: Readonly<Record<string, unknown>>): ListCalendarAccountsQuery {
  return parseQuery(listCalendarAccountsQuerySchema, query);
}

/** The body of `POST /v1/calendars`. A field it does not list is refused, as on every write (validation/unknown-fields.ts). */
export const addCalendarAccountBodySchema = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    // Credentials in the URL would be stored as they are; they have their own fields, and the password is sealed.
    .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), 'give the username and password as their own fields, not in the URL')
    .meta({
      description: 'The CalDAV server, a principal or a calendar URL (http or https); the calendars are discovered from it.',
      examples: ['https://cloud.example.com/remote.php/dav'],
    }),
  username: z.string().min(1).max(256).meta({ description: 'The account’s username on that server.' }),
  password: z.string().min(1).max(1024).meta({
    description: 'The password or app password. Sealed with the server’s calendar key before it is stored; never shown again.',
  }),
  busy_calendars: z
    .array(calendarName)
    .min(1)
    .max(50)
    .optional()
    .meta({ description: 'Calendars (display names or URLs) whose events block time; every event calendar when left out.' }),
  book_into: calendarName.nullable().optional().meta({
    description: 'The calendar new bookings are written to; the first event calendar when left out; null: none (read only).',
  }),
  user: user.optional(),
});
export type AddCalendarAccountBody = z.output<typeof addCalendarAccountBodySchema>;

export function parseAddCalendarAccountBody(body: unknown): AddCalendarAccountBody {
  return parseBody(addCalendarAccountBodySchema, body);
}
