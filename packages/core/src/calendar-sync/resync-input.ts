import { z } from 'zod';
import { parseBody } from '../validation/parse-body.js';

// `POST /v1/calendars/resync` (docs/calendars.md "Writing it again"): one
// booking's event, or every failed one of a host, queued to be written again.

/** The body: a booking, or a host (yourself when both are left out). */
export const resyncCalendarBodySchema = z
  .object({
    booking_uid: z.string().min(1).max(64).optional().meta({
      description: "Write this booking's event again, whatever its calendar_sync_status. Leave out for every failed one of `user`.",
    }),
    user: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: 'Whose failed syncs: a user_id or username you may act for; yourself when left out.' }),
  })
  .refine((body) => body.booking_uid === undefined || body.user === undefined, {
    message: 'give booking_uid or user, not both',
    path: ['user'],
  });
export type ResyncCalendarBody = z.output<typeof resyncCalendarBodySchema>;

export function parseResyncCalendarBody(body: unknown): ResyncCalendarBody {
  return parseBody(resyncCalendarBodySchema, body);
}

/** The answer: how many writes were queued, and how many failed ones are left for another call. */
export const calendarResyncSchema = z
  .object({
    queued: z.int().meta({ description: 'Bookings whose event is queued to be written again now (calendar_sync_status `pending`).' }),
    remaining: z
      .int()
      .meta({ description: 'Failed syncs of the host left beyond this call’s bound; call again for them. 0 for a booking.' }),
  })
  .meta({ description: 'Calendar writes queued again.' });
export type CalendarResync = z.infer<typeof calendarResyncSchema>;
