import { z } from 'zod';
import { cursorParam, instantParam, limitParam } from '../pagination/query-params.js';
import { civilDate, instant, WITH_OFFSET } from '../validation/fields.js';
import { parseBody, parsePatch } from '../validation/parse-body.js';

/** docs/api/time-off.md: a reason is a note for people, at most this long. */
export const MAX_REASON_LENGTH = 255;

const reason = z
  .string()
  .max(MAX_REASON_LENGTH)
  .nullable()
  .meta({ description: `A note, at most ${MAX_REASON_LENGTH} characters; null for none.` });

/**
 * Each end of a range, as an instant or as a whole day in the user's zone.
 * Declared once for create and PATCH: each field sets one end.
 */
const rangeFields = {
  start: instant.optional().meta({ description: `The first instant off. ${WITH_OFFSET}` }),
  end: instant.optional().meta({ description: `The first instant back (exclusive). ${WITH_OFFSET}` }),
  start_date: civilDate.optional().meta({ description: "Instead of start: off from this day's start, in the user's zone." }),
  end_date: civilDate
    .optional()
    .meta({ description: "Instead of end: off through this whole day, in the user's zone. Default with start_date: the same day." }),
};

/** The body of `POST /v1/people/:user_id/time-off`. */
export const createTimeOffBodySchema = z.object({ ...rangeFields, reason: reason.optional() });
export type CreateTimeOffBody = z.output<typeof createTimeOffBodySchema>;

/**
 * The body of `PATCH /v1/people/:user_id/time-off/:id`: the same fields,
 * send only what changes. Its own schema, so that OpenAPI names each body.
 */
export const updateTimeOffBodySchema = z.object({ ...rangeFields, reason: reason.optional() });
export type UpdateTimeOffBody = CreateTimeOffBody;

/** The query of `GET /v1/people/:user_id/time-off`. */
export const listTimeOffQuerySchema = z.object({
  from: instantParam.optional().meta({ description: 'Only ranges ending after this; a date is its 00:00 UTC.' }),
  to: instantParam.optional().meta({ description: 'Only ranges starting before this; a date is its 00:00 UTC.' }),
  limit: limitParam(),
  cursor: cursorParam,
});
export type ListTimeOffQuery = z.output<typeof listTimeOffQuerySchema>;

export function parseCreateTimeOffBody(body: unknown): CreateTimeOffBody {
  return parseBody(createTimeOffBodySchema, body);
}

/** Checks a PATCH body (execute has refused unknown fields already); an empty one changes nothing and is refused. */
export function parseUpdateTimeOffBody(body: unknown): UpdateTimeOffBody {
  return parsePatch(updateTimeOffBodySchema, body);
}
