import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { FIRST_DATE, LAST_DATE } from '../time.js';
import { civilDate, email, httpUrl, timeZone, wallClockTime } from '../validation/fields.js';
import { bodyObject, parseBody } from '../validation/parse-body.js';
import { WEEKDAY_NAMES } from './series-view.js';

// Request bodies of the series writes (api.md "Series"). One schema each,
// shared by every front end; MCP derives its tool input from them.

/** api.md "Limits": a series books 1 to 42 occurrences. */
export const MIN_COUNT = 1;
export const MAX_COUNT = 42;

const uuid = z
  .string()
  .refine(isUuid, 'must be a UUID')
  .transform((id) => id.toLowerCase())
  .meta({ format: 'uuid' });

/** Up to 7 days, none twice (decisions.md "Series expansion" rejects duplicates). */
const weekdays = z
  .array(z.enum(WEEKDAY_NAMES))
  .max(7, 'must list at most 7 days')
  .refine((days) => new Set(days).size === days.length, 'must not list a day twice');

const frequency = z.enum(['weekly', 'monthly_same_day']);
const intervalWeeks = z.int().min(1, 'must be 1 to 8').max(8, 'must be 1 to 8');

export const createSeriesBodySchema = z
  .object({
    host_user_id: uuid,
    event_type_id: uuid.optional(),
    username: z.string().min(1).optional(),
    event_slug: z.string().min(1).optional(),
    attendee: z.object({
      email,
      name: z.string().min(1).max(255).optional(),
      first_name: z.string().max(127).optional(),
      last_name: z.string().max(127).optional(),
      phone: z.string().max(64).optional(),
    }),
    frequency,
    interval_weeks: intervalWeeks.default(1),
    weekdays: weekdays.optional(),
    time: wallClockTime,
    timezone: timeZone.optional(),
    // Bounded so every instant stays a fixed-width timestamp (time.ts); years past 9999 would not.
    starts_on: civilDate.refine((d) => d >= FIRST_DATE && d <= LAST_DATE, `must be between ${FIRST_DATE} and ${LAST_DATE}`),
    // Any integer here; outside 1..42 is its own error, 422 count_out_of_range.
    // The JSON Schema still tells clients the range.
    count: z.int().meta({ minimum: MIN_COUNT, maximum: MAX_COUNT }),
    location_url: httpUrl.optional(),
    notify_invitee: z.boolean().default(true),
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
  });
export type CreateSeriesBody = z.output<typeof createSeriesBodySchema>;

/** Validates a create: 400 for shape, then 422 `count_out_of_range` (api.md "Errors"). */
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
  time: wallClockTime.optional(),
  location_url: httpUrl.optional(),
  notify_invitee: z.boolean().optional(),
});
export type UpdateSeriesBody = z.output<typeof updateSeriesBodySchema>;

const PATCHABLE = Object.keys(updateSeriesBodySchema.shape) as (keyof UpdateSeriesBody)[];

/** The fields whose change moves occurrences (api.md: they hold and replace). */
export const PATTERN_FIELDS = ['frequency', 'interval_weeks', 'weekdays', 'time'] as const satisfies readonly (keyof UpdateSeriesBody)[];

/**
 * Checks a PATCH body. A field that cannot be patched (starts_on, count, the
 * attendee, the event type, anything unknown) and a null `location_url` are
 * well-formed but rejected changes: `422 invalid_change` naming them
 * (decisions.md). A patchable field of the wrong shape is `400
 * validation_error`; an empty body changes nothing and is refused too.
 */
export function parseUpdateSeriesBody(body: unknown): UpdateSeriesBody {
  const value = bodyObject(body);
  const rejected = Object.keys(value).filter((key) => !PATCHABLE.includes(key as keyof UpdateSeriesBody) || value[key] === null);
  if (rejected.length > 0) {
    throw new ScheduleError(
      'invalid_change',
      `These fields cannot be changed this way: ${rejected.join(', ')}. Only ${PATCHABLE.join(', ')} can be patched, and location_url cannot be cleared.`,
      { fields: rejected },
    );
  }
  const parsed = parseBody(updateSeriesBodySchema, value);
  if (Object.keys(parsed).length === 0) {
    throw new ScheduleError('validation_error', `Send at least one of ${PATCHABLE.join(', ')}.`, { fields: [] });
  }
  return parsed;
}

export const changeHostBodySchema = z.object({ host_user_id: uuid });
export type ChangeHostBody = z.output<typeof changeHostBodySchema>;
