import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { FIRST_DATE, LAST_DATE, namesItsOffset, parseInstant } from '../time.js';
import { OFFSET_RULE } from '../validation/fields.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './cursor.js';

// Query parameters arrive as text (HTTP) or as JSON values (MCP); each schema
// takes both and yields one typed value.

/** `limit`: 1 to 100, default 20. */
export const limitParam = z
  .union([
    z
      .string()
      .regex(/^\d{1,4}$/)
      .transform(Number),
    z.int(),
  ])
  .pipe(z.int().min(1).max(MAX_PAGE_SIZE))
  .default(DEFAULT_PAGE_SIZE);

/** A UUID, compared in lower case as ids are stored. */
export const uuidParam = z
  .string()
  .refine(isUuid, 'must be a UUID')
  .transform((id) => id.toLowerCase());

/** An ISO 8601 instant or date, as epoch ms plus whether only a date was given. */
export const instantParam = z.string().transform((text, ctx) => {
  const parsed = parseInstant(text);
  if (!parsed) {
    ctx.addIssue({ code: 'custom', message: `must be an ISO 8601 timestamp or date between ${FIRST_DATE} and ${LAST_DATE}` });
    return z.NEVER;
  }
  if (!parsed.dateOnly && !namesItsOffset(text)) {
    ctx.addIssue({ code: 'custom', message: OFFSET_RULE });
    return z.NEVER;
  }
  return parsed;
});

export const booleanParam = z.union([z.enum(['true', 'false']).transform((v) => v === 'true'), z.boolean()]);

/** A comma-separated list of allowed values, e.g. `status=active,paused`. */
export function csvParam<const T extends readonly [string, ...string[]]>(values: T) {
  const allowed = z.enum(values);
  return z.string().transform((text, ctx) => {
    const parts = text.split(',').map((p) => p.trim());
    const out: T[number][] = [];
    for (const part of parts) {
      const parsed = allowed.safeParse(part);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of ${values.join(', ')}` });
        return z.NEVER;
      }
      out.push(parsed.data);
    }
    return out;
  });
}

/**
 * Validates a query against its schema. The first bad parameter answers
 * `400 invalid_query_param` with `details.param` naming it (decisions.md).
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = String(issue.path[0] ?? '');
  throw new ScheduleError('invalid_query_param', `Query parameter ${param}: ${issue.message}.`, { param });
}
