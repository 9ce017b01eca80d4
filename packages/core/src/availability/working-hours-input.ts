import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { dateOverride, dateOverrides, type Schedule, weeklyHours } from '../event-types/schedule.js';
import { civilDate, timeZone } from '../validation/fields.js';
import { parseBody } from '../validation/parse-body.js';

// The bodies of the working-hours writes (docs/api/availability.md), built
// from the pieces the workspace file's `schedule` is made of (schedule.ts):
// one rule for both.

const HOURS_EXAMPLE = '{"mon":[["09:00","12:00"],["13:00","17:00"]]}';

/** The body of `PUT /v1/people/:user_id/availability`: the whole document but what the server keeps. */
export const replaceWorkingHoursBodySchema = z.object({
  timezone: timeZone.nullable().optional().meta({ description: "IANA zone the hours are in; null or absent: the person's own zone." }),
  weekly: weeklyHours.meta({
    description: `Hours by day (mon…sun), [from, to] pairs HH:MM, 24:00 as an end; a day absent or [] has none. E.g. ${HOURS_EXAMPLE}`,
  }),
  overrides: dateOverrides.optional(),
});

/** The body of `POST /v1/people/:user_id/availability/overrides`. */
export const addOverrideBodySchema = dateOverride;

/** A replace body as the schedule it stores: an absent or null zone is left out, so the person's own is used. */
export function parseReplaceWorkingHoursBody(body: unknown): Schedule {
  const { timezone, weekly, overrides } = parseBody(replaceWorkingHoursBodySchema, body);
  return { ...(timezone ? { timezone } : {}), weekly, overrides: overrides ?? [] };
}

export function parseAddOverrideBody(body: unknown): Schedule['overrides'][number] {
  return parseBody(addOverrideBodySchema, body);
}

/** The `:date` of an override's path: a date that exists, else `400 validation_error` naming `date`. */
export function parseOverrideDate(date: string): string {
  const result = civilDate.safeParse(date);
  if (result.success) return result.data;
  // Stryker disable next-line OptionalChaining,StringLiteral: a failed parse always has at least one issue, so issues[0] is there and the fallback words are never shown; both only satisfy noUncheckedIndexedAccess.
  const why = result.error.issues[0]?.message ?? 'must be a date YYYY-MM-DD';
  throw new ScheduleError('validation_error', `date: ${why}`, { fields: ['date'] });
}
