import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { FREQUENCIES } from '../storage/schema.js';
import { FIRST_DATE, LAST_DATE } from '../time.js';
import { didYouMean } from '../validation/closest-name.js';
import { attendee, civilDate, eventSlug, eventTypeOwner, httpUrl, timeZone, uuid, wallClockTime } from '../validation/fields.js';
import { bodyObject, parseBody } from '../validation/parse-body.js';
import { WEEKDAY_NAMES } from './series-view.js';

// Request bodies of the series writes (docs/api/series.md). One schema each,
// shared by every front end; MCP derives its tool input from them.

/** docs/api/requests.md "Request limits": a series books 1 to 42 occurrences. */
export const MIN_COUNT = 1;
export const MAX_COUNT = 42;

/** Up to 7 days, none twice (docs/api/series.md "The pattern" rejects duplicates). */
const weekdays = z
  .array(z.enum(WEEKDAY_NAMES))
  .max(7, 'must list at most 7 days')
  .refine((days) => new Set(days).size === days.length, 'must not list a day twice')
  .meta({ description: 'Days of a weekly series.' });

const frequency = z.enum(FREQUENCIES).meta({ description: "weekly on weekdays, or monthly_same_day (starts_on's day)." });
/** Said alike for a fraction, text and a number past every bound (`1e308`). */
const INTERVAL_RULE = 'must be an integer from 1 to 8';
const intervalWeeks = z
  .int({
    // Stryker disable next-line ConditionalExpression: equivalent: both uses default (create) or make optional (PATCH) the field, so a missing one never reaches this check and the input here is never undefined (the line's other mutant, the test flipped, is killed).
    error: (issue) => (issue.input === undefined ? undefined : INTERVAL_RULE),
  })
  .min(1, INTERVAL_RULE)
  .max(8, INTERVAL_RULE)
  .meta({ description: 'Every n weeks; weekly only.' });
const time = wallClockTime.meta({ description: 'HH:MM (24-hour) in the series zone.' });
const locationUrl = httpUrl.meta({ description: 'A fixed meeting link for every occurrence.' });
const notifyInvitee = z.boolean().meta({ description: 'false: no mail to the attendee.' });

// docs/api names the host by `host_user_id`; `host_username` is this
// service's addition (issue 11), for callers that know a person by name.
const hostUserId = uuid.meta({ description: 'The host (a user_id you may act for); or host_username.' });
const hostUsername = z.string().min(1).meta({ description: "The host's username, instead of host_user_id." });

const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;

export const createSeriesBodySchema = z
  .object({
    host_user_id: hostUserId.optional(),
    host_username: hostUsername.optional(),
    event_type_id: uuid.optional().meta({ description: 'The event type; or username + event_slug.' }),
    username: eventTypeOwner.optional(),
    event_slug: eventSlug.optional(),
    attendee: attendee.meta({ description: 'Who every occurrence is with.' }),
    frequency,
    interval_weeks: intervalWeeks.default(1),
    weekdays: weekdays.optional(),
    time,
    timezone: timeZone.optional().meta({ description: "IANA zone of time and starts_on; default the host's." }),
    // Bounded so every instant stays a fixed-width timestamp (time.ts); years past 9999 would not.
    starts_on: civilDate
      .refine((d) => d >= FIRST_DATE && d <= LAST_DATE, `must be between ${FIRST_DATE} and ${LAST_DATE}`)
      .meta({ description: 'The first date the pattern may fall on.' }),
    // Any integer here, however large (1e308 is one); outside 1..42 is its own
    // error, 422 count_out_of_range. The JSON Schema still tells clients the range.
    count: z
      .number()
      .refine(Number.isInteger, 'must be an integer')
      .meta({ type: 'integer', minimum: MIN_COUNT, maximum: MAX_COUNT, description: 'Dates the pattern yields, booked or skipped.' }),
    location_url: locationUrl.optional(),
    notify_invitee: notifyInvitee.default(true),
  })
  .superRefine((body, ctx) => {
    if (body.event_type_id === undefined && (body.username === undefined || body.event_slug === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['event_type_id'],
        message: 'name the event type: event_type_id, or both username and event_slug',
      });
    }
    if (body.frequency === 'weekly' && (body.weekdays === undefined || body.weekdays.length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['weekdays'], message: 'a weekly series needs at least one weekday' });
    }
  })
  // docs/api makes the host required: exactly one of the two names it. Checked
  // even when other fields are wrong, so a body missing everything names it too.
  .refine((body) => body.host_user_id !== undefined || body.host_username !== undefined, {
    path: ['host_user_id'],
    message: 'name the host: host_user_id or host_username',
    when: isObject,
  })
  .refine((body) => body.host_user_id === undefined || body.host_username === undefined, {
    path: ['host_username'],
    message: 'name the host once: host_user_id or host_username, not both',
    when: isObject,
  });
export type CreateSeriesBody = z.output<typeof createSeriesBodySchema>;

/** Validates a create: 400 for shape, then 422 `count_out_of_range` (docs/api/errors.md). */
export function parseCreateSeriesBody(body: unknown): CreateSeriesBody {
  const parsed = parseBody(createSeriesBodySchema, body);
  if (parsed.count < MIN_COUNT || parsed.count > MAX_COUNT) {
    throw new ScheduleError('count_out_of_range', `count must be ${MIN_COUNT} to ${MAX_COUNT}.`, {
      fields: ['count'],
      min: MIN_COUNT,
      max: MAX_COUNT,
    });
  }
  return parsed;
}

/** The fields `PATCH /v1/series/:uid` may send; everything else is refused. */
export const updateSeriesBodySchema = z.object({
  frequency: frequency.optional(),
  interval_weeks: intervalWeeks.optional(),
  weekdays: weekdays.optional(),
  time: time.optional(),
  location_url: locationUrl.optional().meta({ description: 'The fixed link, if the series has one.' }),
  notify_invitee: notifyInvitee.optional(),
});
export type UpdateSeriesBody = z.output<typeof updateSeriesBodySchema>;

const PATCHABLE = Object.keys(updateSeriesBodySchema.shape) as (keyof UpdateSeriesBody)[];

/** The fields whose change moves occurrences (docs/api: they hold and replace). */
export const PATTERN_FIELDS = ['frequency', 'interval_weeks', 'weekdays', 'time'] as const satisfies readonly (keyof UpdateSeriesBody)[];

/**
 * Checks a PATCH body. A field that cannot be patched (starts_on, count, the
 * attendee, the event type, anything unknown) and a null `location_url` are
 * well-formed but rejected changes: `422 invalid_change` naming them
 * (docs/api/choices.md). A patchable field of the wrong shape is `400
 * validation_error`; an empty body changes nothing and is refused too.
 */
export function parseUpdateSeriesBody(body: unknown): UpdateSeriesBody {
  const value = bodyObject(body);
  const unknown = Object.keys(value).filter((key) => !PATCHABLE.includes(key as keyof UpdateSeriesBody));
  const rejected = Object.keys(value).filter((key) => unknown.includes(key) || value[key] === null);
  if (rejected.length > 0) {
    throw new ScheduleError(
      'invalid_change',
      `These fields cannot be changed this way: ${rejected.join(', ')}. Only ${PATCHABLE.join(', ')} can be patched, and location_url cannot be cleared.${didYouMean(unknown, PATCHABLE)}`,
      { fields: rejected },
    );
  }
  const parsed = parseBody(updateSeriesBodySchema, value);
  if (Object.keys(parsed).length === 0) {
    throw new ScheduleError('validation_error', `Send at least one of ${PATCHABLE.join(', ')}.`, { fields: [] });
  }
  return parsed;
}

export const changeHostBodySchema = z.object({
  host_user_id: uuid.meta({ description: 'The new host (a user_id you may act for).' }),
});
export type ChangeHostBody = z.output<typeof changeHostBodySchema>;
