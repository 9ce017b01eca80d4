import { z } from 'zod';
import { attendeeName, civilDate, email, jsonObject, timeZone } from '../validation/fields.js';

/** docs/api/times.md: options `find_times` answers when the caller does not say, and at most. */
export const DEFAULT_OPTIONS = 3;
export const MAX_OPTIONS = 5;
/** Days searched from `from` when `to` is not given, and at most (a slot list's window). */
export const DEFAULT_SEARCH_DAYS = 7;
export const MAX_SEARCH_DAYS = 31;

/**
 * Parts of a day, as wall-clock hours in the attendee's zone: a start in
 * [from, to). The bounds are those people mean by the words (Google
 * Calendar's "find a time" uses the same three).
 */
export const PARTS_OF_DAY = {
  morning: { fromMinute: 5 * 60, toMinute: 12 * 60 },
  afternoon: { fromMinute: 12 * 60, toMinute: 17 * 60 },
  evening: { fromMinute: 17 * 60, toMinute: 22 * 60 },
} as const;
export type PartOfDay = keyof typeof PARTS_OF_DAY;

/** The body of `POST /v1/times/find`: who, what and when in the attendee's terms. */
export const findTimesBodySchema = z.object({
  host: z.string().min(1).max(254).optional().meta({ description: 'Whose time: username, email or user id; default you.' }),
  event_type: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: "Event type id, slug or name (a team type's too); default the host's only one." }),
  attendee_timezone: timeZone
    .optional()
    .meta({ description: "The attendee's IANA zone, that from, to and part_of_day are in; default yours." }),
  from: civilDate.optional().meta({ description: 'First day, YYYY-MM-DD; default today.' }),
  to: civilDate
    .optional()
    .meta({ description: `Last day, inclusive; default from + ${DEFAULT_SEARCH_DAYS - 1}, at most ${MAX_SEARCH_DAYS} days.` }),
  part_of_day: z
    .enum(['any', 'morning', 'afternoon', 'evening'])
    .default('any')
    .meta({ description: 'morning 05-12, afternoon 12-17, evening 17-22.' }),
  count: z
    .int()
    .min(1)
    .max(MAX_OPTIONS)
    .default(DEFAULT_OPTIONS)
    .meta({ description: `Options (1-${MAX_OPTIONS}), on different days first.` }),
  hold: z.boolean().default(true).meta({ description: 'Hold each for 10 minutes.' }),
});
export type FindTimesBody = z.output<typeof findTimesBodySchema>;

/** The body of `POST /v1/times/book`. */
export const bookTimeBodySchema = z.object({
  option_id: z.string().min(1).max(200).meta({ description: 'An option_id from find_times.' }),
  attendee: z
    .object({ email, name: attendeeName, timezone: timeZone.optional() })
    .meta({ description: 'Who the meeting is with; timezone: the one searched in (default UTC).' }),
  guests: z.array(email).max(50).default([]).meta({ description: 'More invitees, by email.' }),
  responses: jsonObject.optional().meta({ description: 'Form answers by question id.' }),
});
export type BookTimeBody = z.output<typeof bookTimeBodySchema>;
